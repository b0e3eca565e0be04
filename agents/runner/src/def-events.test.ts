import { ApiResponseError, type Breadcrumb, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import { describe, expect, it } from "vitest";
import { followDefinitions } from "./def-events.ts";

const def = { id: "a1", schema_name: "agent.def.v1", version: 2 } as Breadcrumb;
const event = (type: BreadcrumbEvent["type"]) => ({ type, id: "a1", seq: 7 }) as BreadcrumbEvent;

/** A registry that records what it was told, and a `get` that answers as the API did. */
function follow(get: () => Promise<Breadcrumb>) {
  const done: string[] = [];
  const warned: string[] = [];
  const onEvent = followDefinitions({
    registry: {
      remove: async (id) => void done.push(`remove ${id}`),
      upsert: async (d) => void done.push(`upsert ${d.id}@${d.version}`),
    },
    get,
    log: { warn: (fieldsOrMsg: object | string, msg?: string) => void warned.push(msg ?? String(fieldsOrMsg)) },
    closing: () => false,
  });
  return { onEvent, done, warned };
}

describe("followDefinitions", () => {
  it("removes an agent on its delete event", async () => {
    const f = follow(async () => def);
    await f.onEvent(event("breadcrumb.deleted"));
    expect(f.done).toEqual(["remove a1"]);
  });

  it("keeps the agent when the read after an update answers 404", async () => {
    const f = follow(async () => {
      throw new ApiResponseError("not_found", "breadcrumb a1 not found", 404);
    });
    await f.onEvent(event("breadcrumb.updated"));
    expect(f.done).toEqual([]);
    expect(f.warned).toHaveLength(1);
  });

  it("keeps the agent and hands a 5xx to the caller (which resyncs from the full list)", async () => {
    const f = follow(async () => {
      throw new ApiResponseError("internal", "boom", 500);
    });
    await expect(f.onEvent(event("breadcrumb.updated"))).rejects.toMatchObject({ status: 500 });
    expect(f.done).toEqual([]);
  });

  it("applies the version it read", async () => {
    const f = follow(async () => def);
    await f.onEvent(event("breadcrumb.created"));
    expect(f.done).toEqual(["upsert a1@2"]);
  });
});
