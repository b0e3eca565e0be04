import { describe, expect, it } from "vitest";
import { endedSession } from "./task-end.ts";

const event = (tags: string[], context: Record<string, unknown>, type = "breadcrumb.created") => ({
  type,
  breadcrumb: { tags, context: { agent_id: "a", content: "x", session_id: "s1", ...context } },
});

describe("endedSession", () => {
  it("an answer marked final, or a cancelled task's record, ends this extension's session", () => {
    expect(endedSession(event(["extension:me"], { final: true }), "me")).toBe("s1");
    expect(endedSession(event(["extension:me"], { status: "cancelled" }), "me")).toBe("s1");
  });

  it("an answer with actions beside it, another extension's, or an update: nothing ends", () => {
    expect(endedSession(event(["extension:me"], {}), "me")).toBeUndefined();
    expect(endedSession(event(["extension:other"], { final: true }), "me")).toBeUndefined();
    expect(endedSession(event(["extension:me"], { final: true }, "breadcrumb.updated"), "me")).toBeUndefined();
    expect(endedSession({ truncated: true, id: "x" }, "me")).toBeUndefined();
  });
});
