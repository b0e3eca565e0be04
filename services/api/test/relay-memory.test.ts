import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Msg, NatsConnection } from "nats";
import { sql } from "drizzle-orm";
import { seriesValue, waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

/**
 * Each write hands its event to the relay (outbox/memory-events.ts). At a steady pace the relay's
 * batch is still open when the next write commits, and the event goes out from memory, with no
 * outbox read of its own; what a subscriber sees is the same as through the outbox: each event
 * once, each owner's in seq order, chained on the stream.
 */
describe("events handed to the relay in memory", () => {
  let s: TestStack;
  let nc: NatsConnection;
  const seen: { seq: number; owner: string; msgId: string | undefined; expectedLast: string | undefined }[] = [];

  beforeAll(async () => {
    // No poll to fall back on (once a minute) and no sweeps but the test's own.
    s = await startStack({ CRUMBS_RATE_LIMIT: "off", CRUMBS_RELAY_POLL_MS: "60000", CRUMBS_SWEEP_MS: "3600000" });
    nc = await s.client();
    nc.subscribe("crumbs.>", {
      callback: (_err, m: Msg) => {
        const e = m.json<{ seq: number; owner: string }>();
        seen.push({
          seq: e.seq,
          owner: e.owner,
          msgId: m.headers?.get("Nats-Msg-Id"),
          expectedLast: m.headers?.get("Nats-Expected-Last-Msg-Id") || undefined,
        });
      },
    });
    for (const owner of ["alice", "bob"]) {
      const res = await s.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read", "write"] } });
      tokens[owner] = ((await res.json()) as { token: string }).token;
    }
  }, 60_000);
  afterAll(async () => s?.dispose());

  const tokens: Record<string, string> = {};
  const fromMemory = async () => {
    const text = await (await s.call("/metrics", { token: null })).text();
    return seriesValue(text, "crumbs_outbox_published_from_memory_total")!;
  };
  const history = async () =>
    rowsOf<{ seq: string; owner: string }>(
      await s.database.db.execute(sql`select seq::text as seq, owner from breadcrumb_history order by breadcrumb_history.seq`),
    ).map((r) => ({ seq: Number(r.seq), owner: r.owner }));

  it("two owners writing one after another: most events go out from memory, each once and in order", async () => {
    const before = await fromMemory();
    const WRITES = 40;
    await Promise.all(
      ["alice", "bob"].map(async (owner) => {
        const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.mem.v1", title: owner, context: { n: 0 } }, token: tokens[owner] });
        expect(res.status).toBe(201);
        const { id } = (await res.json()) as { id: string };
        for (let v = 1; v <= WRITES; v++) {
          const patched = await s.call(`/v1/breadcrumbs/${id}`, {
            method: "PATCH",
            json: { context: { n: v } },
            headers: { "if-match": `"${v}"` },
            token: tokens[owner],
          });
          expect(patched.status).toBe(200);
        }
      }),
    );
    const stored = await history();
    await waitFor(() => seen.length === stored.length, { timeout: 15_000, message: `${stored.length} events` });
    await waitFor(async () => (await s.count("outbox")) === 0, { message: "an empty outbox" });

    for (const owner of ["alice", "bob"]) {
      expect(seen.filter((e) => e.owner === owner).map((e) => e.seq)).toEqual(stored.filter((h) => h.owner === owner).map((h) => h.seq));
    }
    expect(new Set(seen.map((e) => e.msgId)).size).toBe(seen.length);
    // Every message of a batch but its first expects the one published before it: no gap, across
    // events read from the outbox and events handed over alike.
    for (let i = 1; i < seen.length; i++) {
      if (seen[i]!.expectedLast !== undefined) expect(seen[i]!.expectedLast).toBe(seen[i - 1]!.msgId);
    }
    // Of 82 events, each owner's first write and each batch's first read come from the outbox; the
    // rest, written while a batch lingers, need not. Here 68 of 82 (relay thread) and 48 (relay on
    // the event loop) on a quiet machine; on a loaded one a write can outlast the linger, and a
    // quarter still tells the path works (without it the count stays 0).
    const handed = (await fromMemory()) - before;
    expect(handed).toBeGreaterThanOrEqual(stored.length / 4);
    expect(handed).toBeLessThanOrEqual(stored.length);
  }, 60_000);

  it("an expiry, which hands no event over, is published while a batch takes another owner's events from memory", async () => {
    const res = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.mem.v1", title: "short-lived", ttl_seconds: 1, context: {} },
      token: tokens.bob,
    });
    expect(res.status).toBe(201);
    const { id: expiring } = (await res.json()) as { id: string };
    const created = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.mem.v1", title: "steady", context: { n: 0 } }, token: tokens.alice });
    const { id } = (await created.json()) as { id: string };
    await new Promise((r) => setTimeout(r, 1_100));
    // alice writes one after another; the sweep commits bob's expiry in the middle of her run.
    let v = 1;
    const patch = async () => {
      const r = await s.call(`/v1/breadcrumbs/${id}`, { method: "PATCH", json: { context: { n: v } }, headers: { "if-match": `"${v}"` }, token: tokens.alice });
      expect(r.status).toBe(200);
      v++;
    };
    for (let i = 0; i < 10; i++) await patch();
    const sweeping = s.sweeper.sweep();
    await patch();
    await patch();
    expect((await sweeping).expired).toBe(1);
    // The relay polls only once a minute here: the expiry's own kick must have made the open batch read it.
    const deletedSeq = Number(
      rowsOf<{ seq: string }>(
        await s.database.db.execute(sql`select seq::text as seq from breadcrumb_history where breadcrumb_id = ${expiring}::uuid and event = 'deleted'`),
      )[0]?.seq,
    );
    await waitFor(() => seen.some((e) => e.seq === deletedSeq), { timeout: 10_000, message: "the expiry's deleted event" });
  }, 60_000);
});
