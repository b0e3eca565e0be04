import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { AckPolicy, DeliverPolicy, StringCodec } from "nats";
import { waitFor } from "@crumbs/testkit";
import { STREAM_NAME } from "@crumbs/schemas";
import { startStack, type TestStack } from "./stack.ts";

const sc = StringCodec();

describe("writes while NATS is down", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startStack({ CRUMBS_RELAY_POLL_MS: "200" });
  });
  afterAll(() => s?.dispose());

  it("all succeed, and every event arrives exactly once when NATS returns", async () => {
    await s.natsServer.stop();
    await waitFor(() => !s.nats.connected(), { message: "the API to notice NATS is gone" });

    for (let i = 0; i < 100; i++) {
      const res = await s.call("/v1/breadcrumbs", {
        method: "POST",
        json: { schema_name: "test.outage.v1", title: `during outage ${i}`, tags: ["outage"], context: { i } },
      });
      expect(res.status).toBe(201);
    }
    expect(await s.count("breadcrumbs")).toBe(100);
    // What the relay owes now, kept to be owed again below (a relay that crashed after the acks).
    await s.database.db.execute(sql`create table outbox_again as select * from outbox`);

    await s.natsServer.start();
    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    await waitFor(
      async () => {
        const info = await jsm.streams.info(STREAM_NAME).catch(() => undefined);
        return info?.state.messages === 100;
      },
      { timeout: 30_000, message: "100 events in the stream" },
    );

    // Read the stream back as a subscriber would: 100 messages, in order, none twice.
    const consumer = await jsm.consumers.add(STREAM_NAME, {
      durable_name: "outage-check",
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const js = nc.jetstream();
    const c = await js.consumers.get(STREAM_NAME, consumer.name);
    const msgs = await c.fetch({ max_messages: 200, expires: 2_000 });
    const seqs: number[] = [];
    const is: number[] = [];
    for await (const m of msgs) {
      const event = JSON.parse(sc.decode(m.data));
      seqs.push(event.seq);
      is.push(event.breadcrumb.context.i);
      if (process.env.CRUMBS_TEST_LOG) console.error("stream", m.seq, "seq", event.seq, "i", event.breadcrumb.context.i);
    }
    expect(seqs).toHaveLength(100);
    expect(new Set(seqs).size).toBe(100);
    expect(is).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    // Draining again (a relay that crashed between the acks and its delete) is deduplicated by Nats-Msg-Id.
    expect(await s.count("outbox")).toBe(0);
    await s.database.db.execute(sql`insert into outbox select * from outbox_again`);
    s.relay.kick();
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "backlog drained again" });
    expect((await jsm.streams.info(STREAM_NAME)).state.messages).toBe(100);
  }, 90_000);
});
