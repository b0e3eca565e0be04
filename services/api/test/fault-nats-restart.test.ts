import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AckPolicy, DeliverPolicy, StringCodec } from "nats";
import { sql } from "drizzle-orm";
import { STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

const sc = StringCodec();

/** nats-server SIGKILLed twice while writers keep writing: the stream ends with every committed event exactly once. */
describe("NATS killed and restarted during writes", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startStack({ CRUMBS_RELAY_POLL_MS: "100" });
  });
  afterAll(() => s?.dispose());

  it("loses no event and duplicates none", async () => {
    let stop = false;
    const statuses: number[] = [];
    async function writer(w: number) {
      for (let i = 0; !stop; i++) {
        const res = await s.call("/v1/breadcrumbs", {
          method: "POST",
          json: { schema_name: "test.fault.v1", title: `w${w}-${i}`, tags: [`w:${w}`], context: { w, i } },
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    }
    const writers = [0, 1, 2].map(writer);
    for (let round = 0; round < 2; round++) {
      await waitFor(() => statuses.length >= (round + 1) * 150, { timeout: 20_000, message: "writes flowing" });
      await s.natsServer.stop("SIGKILL");
      await new Promise((r) => setTimeout(r, 700));
      await s.natsServer.start();
    }
    await waitFor(() => statuses.length >= 450, { timeout: 20_000, message: "writes after the last restart" });
    stop = true;
    await Promise.all(writers);
    // Writes never depend on NATS: all of them committed.
    expect(statuses.filter((x) => x !== 201)).toEqual([]);

    const committed = rowsOf<{ s: string }>(
      await s.database.db.execute(sql`select seq::text as s from breadcrumb_history order by breadcrumb_history.seq`),
    ).map((r) => Number(r.s));
    expect(committed).toHaveLength(statuses.length);

    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => (await s.relay.backlog()) === 0, { timeout: 30_000, message: "outbox drained" });
    const consumer = await jsm.consumers.add(STREAM_NAME, {
      durable_name: "fault-check",
      ack_policy: AckPolicy.None,
      deliver_policy: DeliverPolicy.All,
    });
    const c = await nc.jetstream().consumers.get(STREAM_NAME, consumer.name);
    const seen: number[] = [];
    while (seen.length < committed.length) {
      const batch = await c.fetch({ max_messages: 500, expires: 1_000 });
      let got = 0;
      for await (const m of batch) {
        seen.push((JSON.parse(sc.decode(m.data)) as { seq: number }).seq);
        got++;
      }
      if (got === 0) break;
    }
    const info = await jsm.streams.info(STREAM_NAME);
    console.log(`nats killed twice: ${committed.length} writes, ${info.state.messages} stream messages`);
    expect(info.state.messages).toBe(committed.length);
    expect(seen).toEqual(committed);
  }, 90_000);
});
