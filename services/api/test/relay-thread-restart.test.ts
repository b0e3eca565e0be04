import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { STREAM_NAME } from "@crumbs/schemas";
import { silentLogger } from "@crumbs/telemetry";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { ManualClock } from "../src/outbox/relay-clock.fixture.ts";
import { outboxBacklog } from "../src/outbox/relay-store.ts";
import { ThreadRelay } from "../src/outbox/relay-thread.ts";
import { startStack, type TestStack } from "./stack.ts";

/**
 * A relay thread that dies is started again after 1 s, on the clock the test moves: not before,
 * and the new thread publishes what was committed while none ran, on its own Postgres connection
 * named `crumbs-relay`.
 */
describe("relay thread restart", () => {
  let s: TestStack;
  let relay: ThreadRelay | undefined;
  beforeAll(async () => {
    s = await startStack({ CRUMBS_RATE_LIMIT: "off" });
    // The stack's own relay is stopped: the one under test is the only one publishing.
    await s.relay.stop();
  }, 60_000);
  afterAll(async () => {
    await relay?.stop();
    await s?.dispose();
  });

  const relayBackends = async () =>
    Number(
      rowsOf<{ n: string }>(
        await s.database.db.execute(
          sql`select count(*)::text as n from pg_stat_activity where application_name = 'crumbs-relay' and datname = current_database()`,
        ),
      )[0]!.n,
    );

  it("starts a dead thread again after 1 s and it publishes what was committed meanwhile", async () => {
    const clock = new ManualClock();
    const logs: { msg: string | undefined; fields: { code?: number } }[] = [];
    const record = (fieldsOrMsg: object | string, msg?: string) =>
      void logs.push(typeof fieldsOrMsg === "string" ? { msg: fieldsOrMsg, fields: {} } : { msg, fields: fieldsOrMsg });
    relay = new ThreadRelay({
      databaseUrl: s.config.databaseUrl!,
      natsUrl: s.natsServer.url,
      pollMs: 100,
      backlog: () => outboxBacklog(s.database.db),
      clock,
      log: { ...silentLogger, warn: record, error: record },
    });
    await relay.start();
    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    const stored = async () => (await jsm.streams.info(STREAM_NAME)).state.messages;
    const write = async (title: string) => {
      const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.restart.v1", title, context: {} } });
      expect(res.status).toBe(201);
    };

    await write("before");
    await waitFor(async () => (await stored()) === 1, { message: "the first event in the stream" });
    await waitFor(async () => (await outboxBacklog(s.database.db)) === 0, { message: "its batch committed" });
    expect(await relayBackends()).toBe(1);

    const dead = relay.thread!;
    await dead.terminate();
    await waitFor(() => logs.some((l) => l.msg === "relay thread exited, starting another" && l.fields.code === 1), { message: "the death noticed" });
    expect(relay.thread).toBeUndefined();
    expect(clock.pending()).toEqual([1_000]);
    await waitFor(async () => (await relayBackends()) === 0, { message: "the dead thread's connection gone" });

    await write("while dead");
    expect(await outboxBacklog(s.database.db)).toBe(1);
    clock.advance(999);
    expect(relay.thread).toBeUndefined();
    clock.advance(1);
    expect(relay.thread).toBeDefined();
    expect(relay.thread).not.toBe(dead);
    await waitFor(async () => (await stored()) === 2, { message: "the event committed while no thread ran, published by the new one" });
    await waitFor(async () => (await outboxBacklog(s.database.db)) === 0, { message: "its batch committed" });
    expect(await relayBackends()).toBe(1);

    await relay.stop();
    expect(relay.stoppedCleanly).toBe(true);
    await waitFor(async () => (await relayBackends()) === 0, { message: "the relay's connection closed" });
  }, 60_000);
});
