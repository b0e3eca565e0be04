import { describe, expect, it } from "vitest";
import { completeActionEvent, decodeAction } from "./action-event.ts";
import { isCancelledBy } from "../../shared/state/control.ts";

const event = (owner: string, context: Record<string, unknown>, tags = ["extension:ext1", "session:s1"]) => ({
  type: "breadcrumb.created",
  id: "b1",
  schema_name: "browser.action.v1",
  breadcrumb: { id: "b1", owner, title: "t", tags, context, created_at: "2026-01-01T00:00:00.000Z" },
});
const click = { action: "click", params: { ref: "e1" }, target_extension: "ext1", request_id: "r1" };

describe("decodeAction", () => {
  it("keeps an action of this extension's owner addressed to it, with its task", () => {
    const task = { agent_id: "a", root: { id: "root1", version: 1 }, step: 2, max_steps: 8, session_id: "s1", tool_call_id: "c", index: 0 };
    const d = decodeAction(event("alice", { ...click, task }), "ext1", "alice");
    expect(d).toMatchObject({ kind: "entry", entry: { request_id: "r1", session: "s1", task: { agent_id: "a", step: 2, max_steps: 8 } } });
  });
  it("ignores another owner's action, one for another extension, and an untagged one", () => {
    expect(decodeAction(event("mallory", click), "ext1", "alice")).toMatchObject({ kind: "skip", reason: expect.stringMatching(/owned by mallory/) });
    expect(decodeAction(event("alice", { ...click, target_extension: "ext2" }), "ext1", "alice").kind).toBe("skip");
    expect(decodeAction(event("alice", click, ["browser:refused", "session:s1"]), "ext1", "alice").kind).toBe("skip");
  });
  it("answers a file: URL invalid_params instead of running it", () => {
    const d = decodeAction(event("alice", { ...click, action: "open", params: { url: "file:///etc/passwd" } }), "ext1", "alice");
    expect(d).toMatchObject({ kind: "entry", entry: { state: "done", result: { code: "invalid_params" } } });
  });
});

describe("isCancelledBy", () => {
  const at = "2026-01-01T00:01:00.000Z";
  it("a stop names a task by its root, or the whole session up to its time", () => {
    const task = { root: { id: "root1" } };
    expect(isCancelledBy([{ session: "s1", root: "root1", at }], { session: "s1", created_at: "2026-01-01T00:05:00.000Z", task })).toBe(true);
    expect(isCancelledBy([{ session: "s1", root: "root2", at }], { session: "s1", created_at: "2026-01-01T00:00:30.000Z", task })).toBe(false);
    expect(isCancelledBy([{ session: "s1", at }], { session: "s1", created_at: "2026-01-01T00:00:30.000Z" })).toBe(true);
    expect(isCancelledBy([{ session: "s1", at }], { session: "s1", created_at: "2026-01-01T00:02:00.000Z" })).toBe(false);
    expect(isCancelledBy([{ session: "s2", at }], { session: "s1", created_at: "2026-01-01T00:00:30.000Z" })).toBe(false);
  });
});

const refBreadcrumb = {
  id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
  owner: "alice",
  title: "type",
  tags: ["extension:ext1"],
  context: { action: "screenshot", request_id: "r1", target_extension: "ext1", params: {} },
  created_at: "2025-01-15T10:30:00.000Z",
};
const refEvent = { seq: 9, type: "breadcrumb.created", id: refBreadcrumb.id, schema_name: "browser.action.v1", version: 1, breadcrumb: refBreadcrumb };

describe("completeActionEvent", () => {
  it("fetches the breadcrumb of a reference event, so the action decodes as if it had come whole", async () => {
    const { breadcrumb: _b, ...fields } = refEvent;
    const asked: string[] = [];
    const done = await completeActionEvent({ ...fields, truncated: true }, async (id) => {
      asked.push(id);
      return refBreadcrumb;
    });
    expect(asked).toEqual([refBreadcrumb.id]);
    expect(decodeAction(done, "ext1", "alice")).toEqual(decodeAction(refEvent, "ext1", "alice"));
  });

  it("passes a whole event through without asking the API", async () => {
    const done = await completeActionEvent(refEvent, () => Promise.reject(new Error("must not be called")));
    expect(done).toBe(refEvent);
  });
});
