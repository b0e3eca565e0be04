import { describe, expect, it } from "vitest";
import { browserTools, parseToolCall, toolAllowed } from "./browser-tools.ts";
import { ModelError, chatCompletion } from "./chat-completion.ts";
import { routeModel } from "./model-route.ts";

describe("routeModel", () => {
  it("sends openrouter/<model> to OpenRouter with its key, others to the OpenAI-compatible base", () => {
    expect(routeModel("openrouter/anthropic/claude-3.5-sonnet", { openrouterApiKey: "k" })).toMatchObject({
      ok: true,
      baseUrl: "https://openrouter.ai/api/v1",
      model: "anthropic/claude-3.5-sonnet",
      apiKey: "k",
    });
    expect(routeModel("gpt-4o-mini", { openaiBaseUrl: "http://local/v1" })).toMatchObject({
      ok: true,
      baseUrl: "http://local/v1",
    });
  });
  it("says which variable to set, and where, when no model is configured", () => {
    const openai = routeModel("gpt-4o-mini", {});
    expect(openai.ok).toBe(false);
    if (!openai.ok) {
      expect(openai.reason).toContain("gpt-4o-mini needs OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL (for a local");
      expect(openai.reason).toContain("in .env where `npm start` runs");
    }
    const openrouter = routeModel("openrouter/x", { openaiBaseUrl: "http://l" });
    expect(openrouter.ok).toBe(false);
    if (!openrouter.ok) expect(openrouter.reason).toMatch(/openrouter\/x needs OPENROUTER_API_KEY\. Set OPENROUTER_API_KEY \(in \.env/);
  });
});

describe("browser tools", () => {
  it("makes one browser_<action> tool per allowed action, parameters from the zod schema", () => {
    const tools = browserTools(["browser_*"]);
    const click = tools.find((t) => t.function.name === "browser_click")!;
    expect(click.function.parameters).toMatchObject({ type: "object" });
    expect(JSON.stringify(click.function.parameters)).toContain("ref");
    // The action's own description, not the fallback: the model reads what each tool does.
    expect(click.function.description).toMatch(/^Click an element in the user's browser/);
    expect(tools.length).toBeGreaterThanOrEqual(20);
    expect(browserTools(["browser_click"]).map((t) => t.function.name)).toEqual(["browser_click"]);
    expect(browserTools(undefined)).toEqual([]);
  });
  it("validates a model's tool call before it becomes an action", () => {
    expect(parseToolCall("browser_click", '{"ref":"e3"}', ["browser_*"])).toEqual({
      ok: true,
      action: "click",
      params: { ref: "e3" },
    });
    expect(parseToolCall("browser_click", "{", ["browser_*"])).toMatchObject({ ok: false });
    expect(parseToolCall("browser_open", "{}", ["browser_*"])).toMatchObject({ ok: false });
    expect(parseToolCall("browser_click", '{"ref":"e3"}', ["browser_fill"])).toMatchObject({ ok: false });
    expect(toolAllowed(["browser_*"], "shell_exec")).toBe(false);
  });
});

describe("chatCompletion", () => {
  const call = (fetchImpl: typeof fetch, timeoutMs = 1000) =>
    chatCompletion({
      fetch: fetchImpl,
      baseUrl: "http://m/v1/",
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      timeoutMs,
    });
  const json =
    (body: unknown, status = 200) =>
    async () =>
      new Response(JSON.stringify(body), { status });

  it("reads text and tool calls", async () => {
    const r = await call(
      json({
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                { id: "c", type: "function", function: { name: "browser_click", arguments: "{}" } },
              ],
            },
          },
        ],
      }),
    );
    expect(r.toolCalls[0]!.function.name).toBe("browser_click");
  });
  it("turns every failure into a typed ModelError", async () => {
    await expect(call(json({ error: "x" }, 503))).rejects.toMatchObject({
      code: "model_http_error",
      status: 503,
    });
    await expect(call(json({ nope: 1 }))).rejects.toMatchObject({ code: "model_bad_response" });
    await expect(call(async () => new Response("<html>"))).rejects.toMatchObject({
      code: "model_bad_response",
    });
    await expect(call(async () => Promise.reject(new TypeError("fetch failed")))).rejects.toBeInstanceOf(
      ModelError,
    );
    const hang: typeof fetch = (_u, init) =>
      new Promise((_r, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    await expect(call(hang, 50)).rejects.toMatchObject({ code: "model_timeout" });
  });
});
