import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { AckPolicy, connect, DeliverPolicy, StringCodec } from "nats";
import { STREAM_NAME } from "@crumbs/schemas";
import { createTestDatabase, NatsServer, waitFor, type TestDatabase } from "@crumbs/testkit";
import { spawnApi } from "./api-process.ts";

const TOKEN = "fault-api-kill-token-0123";
const WRITES = 60;

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** An API SIGKILLed with events still in the outbox: another API process publishes them, each once. */
describe("API killed with events in the outbox", () => {
  let pg: TestDatabase;
  let nats: NatsServer;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    [pg, nats] = await Promise.all([createTestDatabase("crumbs_fault_api"), NatsServer.start()]);
  });
  afterAll(async () => {
    await Promise.all(children.map(kill));
    await nats?.dispose();
    await pg?.drop();
  });

  it("the next API process drains them", async () => {
    const first = await spawnApi({ DATABASE_URL: pg.url, NATS_URL: nats.url }, TOKEN);
    children.push(first.child);
    await nats.stop();
    for (let i = 0; i < WRITES; i++) {
      const res = await fetch(`${first.url}/v1/breadcrumbs`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ schema_name: "test.fault.v1", title: `pending ${i}`, context: { i } }),
      });
      expect(res.status).toBe(201);
    }
    await kill(first.child);

    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      const [pending] = await sql<{ n: string }[]>`select count(*)::text as n from outbox`;
      expect(Number(pending?.n)).toBe(WRITES);

      await nats.start();
      const second = await spawnApi({ DATABASE_URL: pg.url, NATS_URL: nats.url }, TOKEN);
      children.push(second.child);
      await waitFor(
        async () => {
          const [r] = await sql<{ n: string }[]>`select count(*)::text as n from outbox`;
          return Number(r?.n) === 0;
        },
        { timeout: 20_000, message: "the second API drained the outbox" },
      );
    } finally {
      await sql.end();
    }

    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const consumer = await jsm.consumers.add(STREAM_NAME, {
        durable_name: "fault-api-kill",
        ack_policy: AckPolicy.None,
        deliver_policy: DeliverPolicy.All,
      });
      const c = await nc.jetstream().consumers.get(STREAM_NAME, consumer.name);
      const is: number[] = [];
      for await (const m of await c.fetch({ max_messages: WRITES * 2, expires: 1_500 })) {
        is.push((JSON.parse(StringCodec().decode(m.data)) as { breadcrumb: { context: { i: number } } }).breadcrumb.context.i);
      }
      expect(is).toEqual(Array.from({ length: WRITES }, (_, i) => i));
      expect((await jsm.streams.info(STREAM_NAME)).state.messages).toBe(WRITES);
    } finally {
      await nc.close();
    }
  }, 90_000);
});
