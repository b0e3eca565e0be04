import { describe, expect, it } from "vitest";
import { buildMessages } from "./prompt.ts";

describe("buildMessages", () => {
  const trigger = {
    id: "t1",
    version: 1,
    schema_name: "chat.message.v1",
    event: "created",
    view: { content: "click the button", session_id: "s1" },
  };

  it("puts the system prompt first and the context views and the user's words in the user message", () => {
    const m = buildMessages({
      systemPrompt: "be helpful",
      contexts: [
        { id: "p1", version: 3, schema_name: "browser.page.context.v1", view: { summary: "Docs page" } },
      ],
      trigger,
    });
    expect(m[0]).toEqual({ role: "system", content: "be helpful" });
    expect(m[1]!.role).toBe("user");
    const text = m[1]!.content as string;
    expect(text).toContain('"summary": "Docs page"');
    expect(text).toContain("The user says:\nclick the button");
    expect(text.indexOf("Docs page")).toBeLessThan(text.indexOf("Trigger"));
  });

  it("replays earlier tool calls with their results, in order", () => {
    const m = buildMessages({
      systemPrompt: "s",
      contexts: [],
      trigger,
      steps: [
        {
          calls: [{ toolCallId: "c1", name: "browser_click", arguments: { ref: "e3" } }],
          results: { c1: '{"status":"ok"}' },
        },
      ],
      stepsLeft: 3,
    });
    expect(m.map((x) => x.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    expect(m[2]).toMatchObject({
      tool_calls: [{ id: "c1", function: { name: "browser_click", arguments: '{"ref":"e3"}' } }],
    });
    expect(m[3]).toEqual({ role: "tool", tool_call_id: "c1", content: '{"status":"ok"}' });
  });
});
