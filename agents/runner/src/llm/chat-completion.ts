import { z } from "zod";

export const chatToolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string().default("{}") }),
});
export type ChatToolCall = z.infer<typeof chatToolCallSchema>;

export const chatMessageSchema = z.union([
  z.object({ role: z.enum(["system", "user"]), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: z.string().nullable(),
    tool_calls: z.array(chatToolCallSchema).optional(),
  }),
  z.object({ role: z.literal("tool"), tool_call_id: z.string(), content: z.string() }),
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(chatToolCallSchema).nullish(),
        }),
      }),
    )
    .min(1),
});

export interface ChatResult {
  content: string | null;
  toolCalls: ChatToolCall[];
}

export type ModelErrorCode =
  "model_unreachable" | "model_timeout" | "model_http_error" | "model_bad_response";

/** The model endpoint failed; the message is written to the user as the agent's answer. */
export class ModelError extends Error {
  override readonly name = "ModelError";
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ChatRequest {
  fetch: typeof fetch;
  baseUrl: string;
  apiKey?: string | undefined;
  model: string;
  messages: ChatMessage[];
  tools?: ChatTool[];
  timeoutMs: number;
}

export async function chatCompletion(req: ChatRequest): Promise<ChatResult> {
  const url = `${req.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const body: Record<string, unknown> = { model: req.model, messages: req.messages };
  if (req.tools?.length) {
    body.tools = req.tools;
    body.tool_choice = "auto";
  }
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`;
  const signal = AbortSignal.timeout(req.timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await req.fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal });
    text = await res.text();
  } catch (err) {
    if (signal.aborted)
      throw new ModelError("model_timeout", `the model did not answer within ${req.timeoutMs} ms`);
    throw new ModelError("model_unreachable", `the model endpoint is unreachable: ${errorText(err)}`);
  }
  if (!res.ok) {
    throw new ModelError(
      "model_http_error",
      `the model endpoint answered ${res.status}: ${text.slice(0, 300)}`,
      res.status,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelError(
      "model_bad_response",
      `the model endpoint answered something that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) {
    throw new ModelError(
      "model_bad_response",
      `the model endpoint answered an unexpected shape: ${parsed.error.message.slice(0, 300)}`,
    );
  }
  const message = parsed.data.choices[0]!.message;
  return { content: message.content ?? null, toolCalls: message.tool_calls ?? [] };
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
  }
  return String(err);
}
