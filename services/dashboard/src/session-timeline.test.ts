import { describe, expect, it } from "vitest";
import type { Breadcrumb } from "@crumbs/schemas";
import { buildTimeline, latestTask, sessionsOf, versionAt } from "./session-timeline.ts";

let n = 0;
function crumb(schema_name: string, at: string, tags: string[], context: Record<string, unknown> = {}): Breadcrumb {
  n++;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return { id, owner: "o", schema_name, title: `${schema_name} ${n}`, tags, context, version: 1, created_at: at, updated_at: at, created_by: "x", updated_by: "x" };
}

describe("session timeline", () => {
  const page = (version: number, at: string) => ({ id: "p", version, updated_at: at, title: "Pricing" });

  it("orders a chat, its action with the result joined, and the answer, each with the page version it saw", () => {
    const msg = crumb("chat.message.v1", "2026-01-01T00:00:01Z", ["session:s", "extension:e"]);
    const action = crumb("browser.action.v1", "2026-01-01T00:00:03Z", ["session:s", "extension:e"]);
    const answer = crumb("agent.response.v1", "2026-01-01T00:00:05Z", ["session:s", "extension:e"]);
    const other = crumb("browser.action.result.v1", "2026-01-01T00:00:04Z", ["extension:e"], { action_id: "elsewhere" });
    const tagged = crumb("browser.action.result.v1", "2026-01-01T00:00:04Z", ["session:s"], { action_id: action.id });
    const steps = buildTimeline([answer, action, msg, tagged], [other], {
      e: [page(1, "2026-01-01T00:00:00Z"), page(3, "2026-01-01T00:00:04Z"), page(2, "2026-01-01T00:00:02Z")],
    });
    expect(steps.map((s) => [s.kind, s.page?.version, s.result?.id])).toEqual([
      ["message", 1, undefined],
      ["action", 2, tagged.id],
      ["answer", 3, undefined],
    ]);
  });

  it("joins a result found by action id that carries no session tag", () => {
    const action = crumb("browser.action.v1", "2026-01-01T00:00:03Z", ["session:s"]);
    const result = crumb("browser.action.result.v1", "2026-01-01T00:00:04Z", ["extension:e"], { action_id: action.id });
    expect(buildTimeline([action], [result], {}).map((s) => s.result?.id)).toEqual([result.id]);
  });

  it("has no page version before the first one or without an extension tag", () => {
    expect(versionAt([page(1, "2026-01-01T00:00:10Z")], "2026-01-01T00:00:01Z")).toBeUndefined();
    const [step] = buildTimeline([crumb("chat.message.v1", "2026-01-01T00:00:01Z", ["session:s"])], [], {});
    expect(step!.page).toBeUndefined();
  });

  it("lists sessions newest first with their counts", () => {
    const items = [
      crumb("chat.message.v1", "2026-01-01T00:00:01Z", ["session:a"]),
      crumb("chat.message.v1", "2026-01-01T00:00:02Z", ["session:b"]),
      crumb("agent.response.v1", "2026-01-01T00:00:03Z", ["session:a"]),
      crumb("chat.message.v1", "2026-01-01T00:00:04Z", []),
    ];
    expect(sessionsOf(items).map((s) => [s.id, s.count])).toEqual([["a", 2], ["b", 1]]);
  });
});

describe("the session's task", () => {
  it("is the latest task still going, else the one that ended last; it is not a step of the timeline", () => {
    const done = crumb("browser.task.v1", "2026-01-01T00:00:09Z", ["session:s"], { status: "succeeded" });
    const going = crumb("browser.task.v1", "2026-01-01T00:00:05Z", ["session:s"], { status: "executing" });
    const msg = crumb("chat.message.v1", "2026-01-01T00:00:01Z", ["session:s"]);
    expect(latestTask([done, going, msg])?.id).toBe(going.id);
    expect(latestTask([done, msg])?.id).toBe(done.id);
    expect(latestTask([msg])).toBeUndefined();
    expect(buildTimeline([done, going, msg], [], {}).map((s) => s.kind)).toEqual(["message"]);
  });
});
