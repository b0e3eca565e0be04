import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AckPolicy, connect, DeliverPolicy, StringCodec } from "nats";
import { sql } from "drizzle-orm";
import { STREAM_NAME } from "@crumbs/schemas";
import { createTestDatabase, NatsServer, seriesValue, waitFor, type TestDatabase } from "@crumbs/testkit";
import { spawnApi } from "./api-process.ts";
import { rowsOf } from "../src/db/database.ts";
import { ThreadRelay } from "../src/outbox/relay-thread.ts";
import { startStack, type TestStack } from "./stack.ts";

const sc = StringCodec();
const OWNERS = ["alice", "bob", "carol", "dave"];

/**
 * The relay in its worker thread (CRUMBS_RELAY_THREAD=on) through a nats-server SIGKILL and
 * restart: every committed write reaches the stream once, each owner's events in seq order,
 * and stop() lets the thread close its own connections.
 */
describe("relay thread", () => {
  let s: TestStack;
  const keys = new Map<string, string>();
  beforeAll(async () => {
    s = await startStack({ CRUMBS_RELAY_THREAD: "on", CRUMBS_RELAY_POLL_MS: "100", CRUMBS_RATE_LIMIT: "off" });
    for (const owner of OWNERS) {
      const res = await s.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read", "write"] } });
      keys.set(owner, ((await res.json()) as { token: string }).token);
    }
  }, 60_000);
  afterAll(() => s?.dispose());

  it("delivers every committed write in per-owner order through a NATS restart, then stops cleanly", async () => {
    expect(s.relay).toBeInstanceOf(ThreadRelay);
    let stop = false;
    const statuses: number[] = [];
    async function writer(owner: string) {
      // Creates then patches: updates of one row make the per-owner order visible as versions too.
      const created = await s.call("/v1/breadcrumbs", {
        method: "POST",
        json: { schema_name: "test.thread.v1", title: owner, context: { n: 0 } },
        token: keys.get(owner)!,
      });
      const { id } = (await created.json()) as { id: string };
      statuses.push(created.status);
      for (let version = 1; !stop; version++) {
        const res = await s.call(`/v1/breadcrumbs/${id}`, {
          method: "PATCH",
          json: { context: { n: version } },
          headers: { "if-match": `"${version}"` },
          token: keys.get(owner)!,
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    }
    const writers = OWNERS.map(writer);
    await waitFor(() => statuses.length >= 150, { timeout: 20_000, message: "writes flowing" });
    await s.natsServer.stop("SIGKILL");
    await waitFor(() => !s.nats.connected(), { message: "the API to notice NATS is gone" });
    const during = statuses.length;
    await waitFor(() => statuses.length >= during + 100, { timeout: 20_000, message: "writes while NATS is down" });
    await s.natsServer.start();
    await waitFor(() => statuses.length >= during + 250, { timeout: 20_000, message: "writes after the restart" });
    stop = true;
    await Promise.all(writers);
    expect(statuses.filter((x) => x !== 200 && x !== 201)).toEqual([]);

    const committed = rowsOf<{ seq: string; owner: string }>(
      await s.database.db.execute(sql`select seq::text as seq, owner from breadcrumb_history order by breadcrumb_history.seq`),
    ).map((r) => ({ seq: Number(r.seq), owner: r.owner }));
    expect(committed).toHaveLength(statuses.length);
    await waitFor(async () => (await s.relay.backlog()) === 0, { timeout: 30_000, message: "outbox drained" });

    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    const consumer = await jsm.consumers.add(STREAM_NAME, {
      durable_name: "thread-check",
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const c = await nc.jetstream().consumers.get(STREAM_NAME, consumer.name);
    const seen: { seq: number; owner: string; version: number }[] = [];
    while (seen.length < committed.length) {
      const batch = await c.fetch({ max_messages: 500, expires: 1_000 });
      let got = 0;
      for await (const m of batch) {
        const e = JSON.parse(sc.decode(m.data)) as { seq: number; owner: string; version: number };
        seen.push({ seq: e.seq, owner: e.owner, version: e.version });
        got++;
      }
      if (got === 0) break;
    }
    expect((await jsm.streams.info(STREAM_NAME)).state.messages).toBe(committed.length);
    // Each committed write once. Order holds per owner (seq is drawn under the owner's lock, so
    // two owners' writes may commit, and be published, in the other order than their seqs).
    expect(seen.map((e) => e.seq).sort((a, b) => a - b)).toEqual(committed.map((e) => e.seq));
    for (const owner of OWNERS) {
      const mine = seen.filter((e) => e.owner === owner);
      expect(mine.map((e) => e.seq)).toEqual(committed.filter((e) => e.owner === owner).map((e) => e.seq));
      expect(mine.map((e) => e.version)).toEqual(mine.map((_, i) => i + 1));
    }

    // /metrics: every published event has its delay from its write, and the writes made while
    // NATS was down show that they waited for it.
    const metrics = await waitFor(async () => {
      const text = await (await s.call("/metrics", { token: null })).text();
      return (seriesValue(text, "crumbs_outbox_publish_delay_seconds_count") ?? 0) >= committed.length ? text : undefined;
    }, { message: "the relay thread's delays in /metrics" });
    const delays = seriesValue(metrics, "crumbs_outbox_publish_delay_seconds_count")!;
    expect(delays).toBe(seriesValue(metrics, "crumbs_outbox_published_total"));
    expect(seriesValue(metrics, "crumbs_outbox_publish_delay_seconds_sum")).toBeGreaterThan(0);
    expect(delays - seriesValue(metrics, "crumbs_outbox_publish_delay_seconds_bucket", { le: "0.1" })!).toBeGreaterThan(0);

    // stop(): the thread finishes its batch and closes its Postgres and NATS connections itself.
    const relay = s.relay as ThreadRelay;
    const relayBackends = async () =>
      rowsOf<{ n: string }>(
        await s.database.db.execute(sql`select count(*)::text as n from pg_stat_activity where application_name = 'crumbs-relay' and datname = current_database()`),
      )[0]!.n;
    expect(Number(await relayBackends())).toBe(1);
    await relay.stop();
    expect(relay.stoppedCleanly).toBe(true);
    await waitFor(async () => Number(await relayBackends()) === 0, { message: "the relay's connection closed" });
    // Kicks after stop are ignored, not thrown.
    relay.kick();
  }, 120_000);
});

/** Node flags a worker refuses (per-process and V8 ones) stay with the process: the API still starts its relay thread. */
describe("relay thread under node flags", () => {
  let pg: TestDatabase;
  let nats: NatsServer;
  let child: ChildProcess | undefined;
  beforeAll(async () => {
    [pg, nats] = await Promise.all([createTestDatabase("crumbs_relay_flags"), NatsServer.start()]);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await nats?.dispose();
    await pg?.drop();
  });

  it("starts with --max-old-space-size and publishes a write", async () => {
    const token = "relay-flags-token-0123456789";
    const api = await spawnApi({ DATABASE_URL: pg.url, NATS_URL: nats.url, CRUMBS_RELAY_THREAD: "on" }, token, ["--max-old-space-size=512"]);
    child = api.child;
    const res = await fetch(`${api.url}/v1/breadcrumbs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ schema_name: "test.flags.v1", title: "flags", context: {} }),
    });
    expect(res.status).toBe(201);
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      await waitFor(async () => (await jsm.streams.info(STREAM_NAME)).state.messages === 1, { message: "the event in the stream" });
    } finally {
      await nc.close();
    }
  }, 60_000);
});
