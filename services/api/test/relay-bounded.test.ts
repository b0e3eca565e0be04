import { connect, type Msg, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrumbsClient, handleEvents, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import { waitFor } from "@crumbs/testkit";
import { cleanEnv, runCli } from "../../cli/test/run-cli.ts";
import { startStack, TOKEN, type TestStack } from "./stack.ts";

/**
 * The relay never stalls behind one row, against a nats-server with a small
 * max_payload (32 KiB, so oversized events are cheap to make): an event that
 * does not fit goes out as a reference event the SDK completes, a row that can
 * never be published is parked (and its owner's later rows held behind it),
 * and every other owner's events keep flowing, in order per owner.
 */
const MAX_PAYLOAD = 32 * 1024;

interface Seen {
  owner: string;
  seq: number;
  truncated: boolean;
  hasBreadcrumb: boolean;
  msgId: string | undefined;
  at: number;
}

describe("relay under max_payload", () => {
  let s: TestStack;
  let url: string;
  let nc: NatsConnection;
  const seen: Seen[] = [];
  const tokens: Record<string, string> = {};

  const watch = (conn: NatsConnection) =>
    conn.subscribe("crumbs.>", {
      callback: (_err, m: Msg) => {
        const e = m.json<{ owner: string; seq: number; truncated?: boolean; breadcrumb?: unknown }>();
        seen.push({ owner: e.owner, seq: e.seq, truncated: e.truncated === true, hasBreadcrumb: "breadcrumb" in e, msgId: m.headers?.get("Nats-Msg-Id"), at: performance.now() });
      },
    });

  beforeAll(async () => {
    s = await startStack({ CRUMBS_SWEEP_MS: "600000" }, { nats: { maxPayload: MAX_PAYLOAD } });
    url = await s.serve();
    nc = await connect({ servers: s.natsServer.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
    watch(nc);
    for (const owner of ["bob", "carol"]) {
      const res = await s.call("/v1/keys", { method: "POST", json: { owner, scopes: ["read", "write"] } });
      tokens[owner] = ((await res.json()) as { token: string }).token;
    }
  });
  afterAll(async () => {
    await nc?.close();
    await s?.dispose();
  });

  const write = async (token: string, body: Record<string, unknown>) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.relay.v1", context: {}, ...body }, token });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; version: number };
  };
  const seqsOf = (owner: string) => seen.filter((e) => e.owner === owner).map((e) => e.seq);
  const inOrder = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);
  const crumbs = (...args: string[]) => runCli(args, { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: TOKEN }) });

  it("sends an oversized event as a reference event, the SDK hands the handler the full breadcrumb, and every owner keeps flowing", async () => {
    const client = new CrumbsClient({ url, token: TOKEN, natsUrl: s.natsServer.url });
    const got: BreadcrumbEvent[] = [];
    const sub = handleEvents(await client.subscribe({ schema_name: "test.relay.v1" }, { owner: "default" }), (e) => void got.push(e));
    try {
      const blob = "x".repeat(200 * 1024);
      const big = await write(TOKEN, { title: "big", context: { blob } });
      const after = [];
      for (let i = 0; i < 5; i++) {
        after.push(await write(TOKEN, { title: `a${i}`, context: { i } }));
        await write(tokens.bob!, { title: `b${i}`, context: { i } });
      }
      await waitFor(() => got.length >= 6, { timeout: 15_000, message: "the SDK got the big event and the 5 after it" });
      // On the wire: a reference event with the same Nats-Msg-Id, without the breadcrumb.
      const wire = seen.find((e) => e.truncated);
      expect(wire).toMatchObject({ owner: "default", hasBreadcrumb: false, msgId: `${big.id}:1:created` });
      // To the handler: the full event, blob included, then the rest in order.
      expect(got[0]?.id).toBe(big.id);
      expect((got[0]?.breadcrumb.context as { blob: string }).blob).toBe(blob);
      expect(got.slice(1).map((e) => e.id)).toEqual(after.map((a) => a.id));
      await waitFor(() => seqsOf("bob").length >= 5, { message: "bob's 5 events" });
      expect(inOrder(seqsOf("default"))).toBe(true);
      expect(inOrder(seqsOf("bob"))).toBe(true);
      // Rows are deleted after the acks, in the relay's own commit: a moment after delivery.
      await waitFor(async () => (await s.relay.backlog()) === 0, { message: "every published row deleted" });
      expect(await s.count("outbox_parked")).toBe(0);
    } finally {
      await sub.stop();
      await client.close();
    }
  }, 60_000);

  it("hostile neighbour: while one owner writes oversized breadcrumbs, another owner's write reaches NATS within 1 s", async () => {
    const blob = "y".repeat(900 * 1024);
    const huge: string[] = [];
    for (let round = 0; round < 3; round++) {
      // The oversized row is committed, so in the outbox ahead of bob's, before bob writes.
      huge.push((await write(TOKEN, { title: `huge ${round}`, context: { blob } })).id);
      const started = performance.now();
      const { id } = await write(tokens.bob!, { title: `neighbour ${round}`, context: { round } });
      const arrived = await waitFor(() => seen.find((e) => e.owner === "bob" && e.msgId === `${id}:1:created`), {
        timeout: 5_000,
        message: "bob's event on NATS",
      });
      expect(arrived.at - started).toBeLessThan(1_000);
    }
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "the oversized events went out too" });
    expect(seen.filter((e) => e.truncated && huge.some((id) => e.msgId === `${id}:1:created`))).toHaveLength(3);
    expect(await s.count("outbox_parked")).toBe(0);
  }, 60_000);

  it("parks a row that cannot be published even as a reference, holds its owner's later rows, lists them, and re-sends them on retry", async () => {
    // 100 tags of 200 three-byte characters: the reference event alone is ~60 KB, over 32 KiB.
    const tags = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(200, "€"));
    const poison = await write(tokens.carol!, { title: "poison", tags });
    const behind = await write(tokens.carol!, { title: "held", context: { small: true } });
    const bob = await write(tokens.bob!, { title: "still flowing" });
    await waitFor(() => seen.find((e) => e.msgId === `${bob.id}:1:created`), { message: "bob's event is not blocked by carol's" });
    await waitFor(async () => (await s.count("outbox_parked")) === 2, { message: "both carol rows parked" });
    // bob's row is deleted in the relay's commit after its ack, a moment after it was seen on NATS.
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "nothing pending: bob's row published, carol's parked" });
    expect(seen.filter((e) => e.owner === "carol")).toEqual([]);

    const listed = await crumbs("outbox", "list");
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d+ carol crumbs\.carol\.created\.test\.relay\.v1 parked=\S+ .*reference event of \d+ bytes exceed max_payload 32768/);
    expect(lines[1]).toMatch(/held behind parked seq/);
    const metrics = await (await s.call("/metrics")).text();
    expect(metrics).toContain("crumbs_outbox_parked 2");
    expect(metrics).toMatch(/crumbs_outbox_parked_total [2-9]/);

    // The cause fixed (a larger max_payload), retry re-sends both, in order.
    s.natsServer.maxPayload = 256 * 1024;
    await s.natsServer.restart();
    await waitFor(() => s.nats.connected() && s.nats.maxPayload() === 256 * 1024, { timeout: 15_000, message: "the API reconnected" });
    await waitFor(() => !nc.isClosed() && nc.info?.max_payload === 256 * 1024, { timeout: 15_000, message: "the watcher reconnected" });
    const retried = await crumbs("outbox", "retry", "--all");
    expect(retried.code).toBe(0);
    expect(retried.stdout.trim().split("\n")).toHaveLength(2);
    await waitFor(() => seen.filter((e) => e.owner === "carol").length === 2, { timeout: 10_000, message: "carol's events published" });
    const carol = seen.filter((e) => e.owner === "carol");
    expect(carol.map((e) => e.msgId)).toEqual([`${poison.id}:1:created`, `${behind.id}:1:created`]);
    expect(carol[0]).toMatchObject({ truncated: false, hasBreadcrumb: true });
    expect(await s.count("outbox_parked")).toBe(0);
    expect((await crumbs("outbox", "list")).stdout.trim()).toBe("");
  }, 90_000);
});
