import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Msg, NatsConnection } from "nats";
import postgres from "postgres";
import { seriesValue, waitFor } from "@crumbs/testkit";
import { startStack, type TestStack } from "./stack.ts";

interface Seen {
  msgId: string | undefined;
  expectedLast: string | undefined;
}

/**
 * A write that commits while the relay waits for JetStream's acks goes out at once, chained after
 * the message in flight, instead of after that ack, the batch's commit and another read: the
 * write hands its event over (outbox/memory-events.ts), and it follows the one in flight. The
 * nats-server is frozen (SIGSTOP) so that the first message's ack cannot come while the second
 * write commits; a plain subscriber sees the headers each message was published with.
 */
describe("relay batch waiting for acks", () => {
  let s: TestStack;
  let nc: NatsConnection;
  let pg: postgres.Sql;
  const seen: Seen[] = [];

  beforeAll(async () => {
    s = await startStack({ CRUMBS_RATE_LIMIT: "off" });
    pg = postgres(s.pg.url, { max: 1, onnotice: () => {} });
    nc = await s.client();
    nc.subscribe("crumbs.>", {
      callback: (_err, m: Msg) => {
        seen.push({ msgId: m.headers?.get("Nats-Msg-Id"), expectedLast: m.headers?.get("Nats-Expected-Last-Msg-Id") || undefined });
      },
    });
  }, 60_000);
  afterAll(async () => {
    s?.natsServer.resume();
    await pg?.end();
    await s?.dispose();
  });

  const create = async (title: string) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.wait.v1", title, context: {} } });
    expect(res.status).toBe(201);
    const { id, version } = (await res.json()) as { id: string; version: number };
    return `${id}:${version}:created`;
  };

  /** The relay's transaction is open, between statements, and its last statement matches `like`. */
  const relayWaitsAfter = async (like: string) => {
    const rows = await pg<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state = 'idle in transaction' and query like ${like}`;
    return rows[0]!.n > 0;
  };

  const fromMemory = async () => {
    const text = await (await s.call("/metrics", { token: null })).text();
    return seriesValue(text, "crumbs_outbox_published_from_memory_total")!;
  };

  it("sends an event committed meanwhile in the same batch, chained after the one in flight", async () => {
    const warm = await create("warm-up");
    await waitFor(() => seen.some((m) => m.msgId === warm), { message: "the warm-up event" });
    // Past the warm-up batch's linger: the first write starts a batch, which reads it from the outbox.
    await new Promise((r) => setTimeout(r, 200));
    const handedBefore = await fromMemory();

    s.natsServer.pause();
    const first = await create("first");
    // The relay read the first row and published it; its ack cannot come.
    await waitFor(() => relayWaitsAfter("%from outbox%"), { message: "the relay to wait for the first ack" });
    const second = await create("second");
    // Woken by the commit, it takes the second event as its write handed it over, in the same
    // transaction, with no read of its own (counted below).
    s.natsServer.resume();

    await waitFor(() => seen.some((m) => m.msgId === second), { message: "the second event" });
    const got = seen.filter((m) => m.msgId === first || m.msgId === second);
    expect(got).toEqual([
      { msgId: first, expectedLast: undefined },
      { msgId: second, expectedLast: first },
    ]);
    await waitFor(async () => (await s.count("outbox")) === 0, { message: "an empty outbox" });
    expect((await fromMemory()) - handedBefore).toBe(1);
  });
});
