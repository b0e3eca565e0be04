/** Where a model name is sent: OpenRouter for `openrouter/<model>`, the OpenAI-compatible base otherwise. */
export interface ModelEndpoints {
  openaiBaseUrl?: string | undefined;
  openaiApiKey?: string | undefined;
  openrouterApiKey?: string | undefined;
  openrouterBaseUrl?: string | undefined;
}

export type ModelRoute =
  | {
      ok: true;
      baseUrl: string;
      apiKey: string | undefined;
      model: string;
      provider: "openai" | "openrouter";
    }
  | { ok: false; reason: string };

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Where the variables go; the answer a user reads in the chat says it, not only the runner's log. */
const WHERE = "in .env where `npm start` runs, or in the runner's environment, then restart";

export function routeModel(model: string, endpoints: ModelEndpoints): ModelRoute {
  if (!model.trim()) return { ok: false, reason: "the agent definition names no model" };
  if (model.startsWith("openrouter/")) {
    const name = model.slice("openrouter/".length);
    if (!endpoints.openrouterApiKey && !endpoints.openrouterBaseUrl) {
      return {
        ok: false,
        reason:
          `no model is configured: this agent's model ${model} needs OPENROUTER_API_KEY. ` +
          `Set OPENROUTER_API_KEY (${WHERE}), or change the agent's model`,
      };
    }
    return {
      ok: true,
      provider: "openrouter",
      baseUrl: endpoints.openrouterBaseUrl ?? OPENROUTER_BASE_URL,
      apiKey: endpoints.openrouterApiKey,
      model: name,
    };
  }
  // A base URL alone is enough: local OpenAI-compatible servers often need no key.
  if (!endpoints.openaiBaseUrl && !endpoints.openaiApiKey) {
    return {
      ok: false,
      reason:
        `no model is configured: this agent's model ${model} needs OPENAI_API_KEY (for api.openai.com) or ` +
        `OPENAI_BASE_URL (for a local OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1 for Ollama). Set one (${WHERE})`,
    };
  }
  return {
    ok: true,
    provider: "openai",
    baseUrl: endpoints.openaiBaseUrl ?? OPENAI_BASE_URL,
    apiKey: endpoints.openaiApiKey,
    model,
  };
}
