import { AckPolicy } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentConsumerPrefix, STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

/** The read-only routes the dashboard needs: counts per schema and an agent's consumer state. */
describe("dashboard routes", () => {
  let s: TestStack;
  let ownerB: string;

  const put = async (schema_name: string, token?: string, extra: Record<string, unknown> = {}) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", token, json: { schema_name, title: schema_name, context: {}, ...extra } });
    expect(res.status).toBe(201);
  };

  const rows = async <T>(q: SQL) => rowsOf<T>(await s.database.db.execute(q));

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

  it("keeps the counts right through deletes and the expiry sweep, equal to counting the rows", async () => {
    const made: string[] = [];
    for (const name of ["demo.k.v1", "demo.k.v1", "demo.k.v1", "demo.l.v1"]) {
      const res = await s.call("/v1/breadcrumbs", { method: "POST", token: ownerB, json: { schema_name: name, title: "t", context: {} } });
      made.push(((await res.json()) as { id: string }).id);
    }
    expect((await s.call(`/v1/breadcrumbs/${made[0]}`, { method: "DELETE", token: ownerB })).status).toBe(204);
    expect((await s.call(`/v1/breadcrumbs/${made[3]}`, { method: "DELETE", token: ownerB })).status).toBe(204);
    await put("demo.k.v1", ownerB, { ttl_seconds: 1 });
    // The sweeper deletes the expired one (every CRUMBS_SWEEP_MS, 5 s by default).
    await waitFor(async () => (await rows<{ n: string }>(sql`select count(*)::text as n from breadcrumbs where owner = 'b' and expires_at is not null`))[0]?.n === "0", {
      timeout: 20_000,
      message: "the expired breadcrumb swept",
    });
    const expected = [
      { schema_name: "demo.a.v1", count: 1 },
      { schema_name: "demo.k.v1", count: 2 },
    ];
    expect(await (await s.call("/v1/stats/schemas", { token: ownerB })).json()).toEqual({ items: expected });
    // The kept counts are what counting the rows gives, with the deleted schema at zero.
    const truth = await rows<{ schema_name: string; n: string }>(sql`select schema_name, count(*)::text as n from breadcrumbs where owner = 'b' group by 1 order by 1`);
    expect(truth.map((r) => ({ schema_name: r.schema_name, count: Number(r.n) }))).toEqual(expected);
    const kept = await rows<{ schema_name: string; live: string }>(sql`select schema_name, live::text from schema_counts where owner = 'b' order by 1`);
    expect(kept).toEqual([
      { schema_name: "demo.a.v1", live: "1" },
      { schema_name: "demo.k.v1", live: "2" },
      { schema_name: "demo.l.v1", live: "0" },
    ]);
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

  it("matches one agent exactly: not an agent whose id the asked one prefixes, not another owner whose name has a `_`", async () => {
    const jsm = await (await s.client()).jetstreamManager();
    const add = (durable_name: string, filter_subject: string) =>
      jsm.consumers.add(STREAM_NAME, { durable_name, filter_subject, ack_policy: AckPolicy.Explicit });
    // Agent "solo_two" of owner default: its name starts with agent "solo"'s prefix.
    await add(`${agentConsumerPrefix("default", "solo_two")}0badc0de`, "crumbs.default.*.demo.d.v1");
    // Owner "o_x"'s agent "y" has the very name owner "o"'s agent "x_y" would have.
    const shared = `${agentConsumerPrefix("o_x", "y")}0badc0de`;
    expect(shared).toBe(`${agentConsumerPrefix("o", "x_y")}0badc0de`);
    await add(shared, "crumbs.o_x.*.demo.secret.v1");
    const tokenOf = async (owner: string) => {
      const res = await s.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read"], name: owner } });
      return ((await res.json()) as { token: string }).token;
    };
    const [ownerO, ownerOX] = [await tokenOf("o"), await tokenOf("o_x")];
    const names = async (path: string, token?: string) => {
      const res = await s.call(path, { token });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name);
    };
    expect(await names("/v1/agents/solo/consumers")).toEqual([]);
    expect(await names("/v1/agents/solo_two/consumers")).toEqual([`${agentConsumerPrefix("default", "solo_two")}0badc0de`]);
    expect(await names("/v1/agents/x_y/consumers", ownerO)).toEqual([]);
    expect(await names("/v1/agents/y/consumers", ownerOX)).toEqual([shared]);
  });

  it("refuses a malformed agent id with invalid_request", async () => {
    const res = await s.call("/v1/agents/a%20b/consumers");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_request");
  });
});
