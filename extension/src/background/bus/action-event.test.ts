import { describe, expect, it } from "vitest";
import { completeActionEvent, decodeAction } from "./action-event.ts";

const breadcrumb = {
  id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
  owner: "alice",
  title: "type",
  tags: ["extension:ext1"],
  context: { action: "screenshot", request_id: "r1", target_extension: "ext1", params: {} },
  created_at: "2025-01-15T10:30:00.000Z",
};
const event = { seq: 9, type: "breadcrumb.created", id: breadcrumb.id, schema_name: "browser.action.v1", version: 1, breadcrumb };

describe("completeActionEvent", () => {
  it("fetches the breadcrumb of a reference event, so the action decodes as if it had come whole", async () => {
    const { breadcrumb: _b, ...fields } = event;
    const asked: string[] = [];
    const done = await completeActionEvent({ ...fields, truncated: true }, async (id) => {
      asked.push(id);
      return breadcrumb;
    });
    expect(asked).toEqual([breadcrumb.id]);
    expect(decodeAction(done, "ext1")).toEqual(decodeAction(event, "ext1"));
  });

  it("passes a whole event through without asking the API", async () => {
    const done = await completeActionEvent(event, () => Promise.reject(new Error("must not be called")));
    expect(done).toBe(event);
  });
});
