import { AckPolicy } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentConsumerPrefix, STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { startStack, type TestStack } from "./stack.ts";

/** The read-only routes the dashboard needs: counts per schema and an agent's consumer state. */
describe("dashboard routes", () => {
  let s: TestStack;
  let ownerB: string;

  const put = async (schema_name: string, token?: string, extra: Record<string, unknown> = {}) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", token, json: { schema_name, title: schema_name, context: {}, ...extra } });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    s = await startStack({ CRUMBS_RELAY_POLL_MS: "50" });
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "b", scopes: ["read", "write"], name: "b" } });
    ownerB = ((await res.json()) as { token: string }).token;
  });
  afterAll(() => s?.dispose());

  it("counts live breadcrumbs per schema, of the caller's owner only", async () => {
    await put("demo.a.v1");
    await put("demo.a.v1");
    await put("demo.b.v1");
    await put("demo.a.v1", ownerB);
    await put("demo.gone.v1", undefined, { ttl_seconds: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    const mine = await s.call("/v1/stats/schemas");
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual({
      items: [
        { schema_name: "demo.a.v1", count: 2 },
        { schema_name: "demo.b.v1", count: 1 },
      ],
    });
    expect(await (await s.call("/v1/stats/schemas", { token: ownerB })).json()).toEqual({ items: [{ schema_name: "demo.a.v1", count: 1 }] });
  });

  it("shows an agent's consumer with its pending and ack-pending counts, not another owner's", async () => {
    const jsm = await (await s.client()).jetstreamManager();
    const name = `${agentConsumerPrefix("default", "helper")}0badc0de`;
    await jsm.consumers.add(STREAM_NAME, {
      durable_name: name,
      filter_subject: "crumbs.default.*.demo.c.v1",
      ack_policy: AckPolicy.Explicit,
    });
    await put("demo.c.v1");
    await put("demo.c.v1");
    const body = await waitFor(
      async () => {
        const res = await s.call("/v1/agents/helper/consumers");
        const b = (await res.json()) as { items: { name: string; num_pending: number; num_ack_pending: number; filter_subject: string }[] };
        return b.items[0]?.num_pending === 2 ? b : undefined;
      },
      { timeout: 10_000, message: "two pending triggers" },
    );
    expect(body.items).toEqual([
      expect.objectContaining({ name, filter_subject: "crumbs.default.*.demo.c.v1", num_pending: 2, num_ack_pending: 0, last_delivered_stream_seq: null }),
    ]);
    // Owner b has no agent of that name: its prefix differs, so it sees nothing.
    expect(await (await s.call("/v1/agents/helper/consumers", { token: ownerB })).json()).toEqual({ items: [] });
  });

  it("refuses a malformed agent id with invalid_request", async () => {
    const res = await s.call("/v1/agents/a%20b/consumers");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });
});
