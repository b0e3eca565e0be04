import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { connect } from "nats";
import { waitFor, waitForConsumerDrained } from "@crumbs/testkit";
import { STREAM_NAME, type ChatMessageContext } from "@crumbs/schemas";
import { ApiResponseError, ApiTimeoutError, CrumbsClient, handleEvents, hasSchema, type BreadcrumbEvent, type EventSubscription } from "@crumbs/agent-sdk";
import { startStack, type TestStack } from "../../runner/test/stack.ts";

/** Collects the events of a subscription with `for await`, the way an agent reads them. */
function collect<S extends string>(sub: EventSubscription<S>, got: BreadcrumbEvent[]): Promise<void> {
  return (async () => {
    for await (const d of sub) got.push(d.event);
  })();
}

const note = (title: string, tags: string[] = [], context: Record<string, unknown> = {}) => ({
  schema_name: "test.note.v1",
  title,
  tags,
  context: { n: title, ...context },
});

describe("@crumbs/agent-sdk against the real API and nats-server", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startStack();
  });
  afterAll(async () => s?.close());

  it("creates, reads, patches with If-Match and reports contract errors as ApiResponseError", async () => {
    const c = s.client;
    const b = await c.create(note("one", ["a"]), { idempotencyKey: "sdk-1" });
    expect(await c.create(note("one", ["a"]), { idempotencyKey: "sdk-1" })).toMatchObject({ id: b.id });
    const p = await c.patch(b.id, { tags: ["a", "b"] }, { ifMatch: 1 });
    expect(p.version).toBe(2);
    const stale = await c.patch(b.id, { tags: [] }, { ifMatch: 1 }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ApiResponseError);
    expect(stale).toMatchObject({ status: 412, code: "version_mismatch" });
    const missing = await c.get("00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
    const bad = await c
      .list({ selector: { context_match: [{ path: "$.x", op: "nope" }] } })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 422, code: "invalid_selector" });
    expect((await c.history(b.id)).items.map((h) => h.version)).toEqual([1, 2]);
  });

  it("subscribes by selector: narrowed subject, the rest filtered locally, resumes after a stop without loss or repeats", async () => {
    const got: BreadcrumbEvent[] = [];
    const selector = {
      schema_name: "test.note.v1",
      all_tags: ["keep"],
      context_match: [{ path: "$.n", op: "ne" as const, value: "skip" }],
    };
    let sub = await s.client.subscribe(selector, { durable: "sdk-durable", types: ["created"] });
    expect(sub.filterSubject).toBe("crumbs.*.created.test.note.v1");
    let loop = collect(sub, got);
    await s.client.create(note("k1", ["keep"]));
    await s.client.create(note("drop", ["other"]));
    await s.client.create(note("skip", ["keep"]));
    await waitFor(() => got.length === 1);
    // "drop" and "skip" are delivered and acked by the local filter before the stop, so the second
    // subscription starts with nothing handed back (that case has a test of its own below).
    await waitForConsumerDrained(s.nats.url, STREAM_NAME, "sdk-durable");
    await sub.stop();
    await loop;
    // Written while nobody listens: the durable consumer keeps them.
    await s.client.create(note("k2", ["keep"]));
    await s.client.create(note("k3", ["keep"]));
    sub = await s.client.subscribe(selector, { durable: "sdk-durable", types: ["created"] });
    loop = collect(sub, got);
    await waitFor(() => got.length === 3);
    // Drained: everything the consumer will deliver was delivered and acked, so nothing more comes.
    await waitForConsumerDrained(s.nats.url, STREAM_NAME, "sdk-durable");
    expect(got.map((e) => e.title)).toEqual(["k1", "k2", "k3"]);
    await sub.stop();
  });

  it("hands the events it was sent ahead back to the durable consumer when stopped, so the next subscriber gets them at once", async () => {
    const schema = "test.handback.v1";
    const titles = Array.from({ length: 20 }, (_, i) => `h${i}`);
    for (const t of titles) await s.client.create({ ...note(t), schema_name: schema });
    // An ack wait far past the test's own timeout: an event left unacked would not come back in time.
    const opts = { durable: "sdk-handback", deliver: "all" as const, ackWaitMs: 300_000, batch: 8 };
    const first = await s.client.subscribe({ schema_name: schema }, opts);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inHand: string | undefined;
    const firstLoop = (async () => {
      for await (const d of first) {
        inHand = d.event.breadcrumb.title;
        await held; // a slow handler: the consumer has sent this subscription the next events ahead
      }
    })();
    const nc = await connect({ servers: s.nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      await waitFor(async () => (await jsm.consumers.info(STREAM_NAME, "sdk-handback")).num_ack_pending >= 8);
      // Another process sharing the durable subscribes while the first one stops.
      const stopped = first.stop();
      const got = new Set<string>();
      const second = await s.client.subscribe({ schema_name: schema }, opts);
      const secondLoop = (async () => {
        for await (const d of second) got.add(d.event.breadcrumb.title);
      })();
      // Everything but the event the first handler still holds, within a bound 30 times shorter
      // than the ack wait: only a hand-back can deliver the events the first had been sent ahead.
      await waitFor(() => got.size === 19, { timeout: 10_000, message: "the second subscriber got the other 19" });
      expect([...got].sort()).toEqual(titles.filter((t) => t !== inHand).sort());
      release();
      await stopped;
      await firstLoop;
      await second.stop();
      await secondLoop;
      // The event in hand was acked when its handler finished: the consumer has nothing left.
      await waitForConsumerDrained(s.nats.url, STREAM_NAME, "sdk-handback");
    } finally {
      release();
      await nc.close();
    }
  });

  it("keeps going through a nats-server restart, without losing or repeating events", async () => {
    const got: string[] = [];
    const sub = handleEvents(await s.client.subscribe({ schema_name: "test.outage.v1" }, { durable: "sdk-outage" }), (e) => void got.push(e.title));
    const write = (t: string) => s.client.create({ ...note(t), schema_name: "test.outage.v1" });
    await write("before");
    await waitFor(() => got.length === 1);
    await s.nats.stop();
    await write("during"); // committed to Postgres; the outbox relays it when NATS is back
    await s.nats.start();
    await write("after");
    await waitFor(() => got.length >= 3, { timeout: 20_000 });
    // Everything in the stream was delivered; an ack lost in the restart may still be pending (its
    // redelivery is acked without calling the handler again).
    await waitForConsumerDrained(s.nats.url, STREAM_NAME, "sdk-outage", { acked: false });
    // The outbox relays "during" when NATS is back, possibly after "after": each exactly once.
    expect([...got].sort()).toEqual(["after", "before", "during"]);
    await sub.stop();
  });

  it("retries a failing handler and acks only once it succeeds", async () => {
    let calls = 0;
    const sub = await s.client.subscribe({ schema_name: "test.retry.v1" }, { durable: "sdk-retry", nakDelayMs: 50 });
    void (async () => {
      for await (const d of sub) {
        calls++;
        // Not handled yet: nak, and JetStream delivers it again after nakDelayMs.
        if (calls < 3) d.nak();
      }
    })();
    await s.client.create({ ...note("r"), schema_name: "test.retry.v1" });
    await waitFor(() => calls === 3);
    const info = await waitForConsumerDrained(s.nats.url, STREAM_NAME, "sdk-retry");
    // Two naks and one ack: three deliveries of one event, and it is acked, so no fourth comes.
    expect(info.delivered.consumer_seq).toBe(3);
    expect(info.num_redelivered).toBe(0);
    expect(calls).toBe(3);
    await sub.stop();
  });

  it("replays history in seq order from /v1/events, page by page", async () => {
    const since = new Date(Date.now() - 1000);
    const b = await s.client.create({ ...note("v1"), schema_name: "test.replay.v1" });
    let cur: { version: number } = b;
    for (let i = 2; i <= 5; i++)
      cur = await s.client.patch(b.id, { title: `v${i}` }, { ifMatch: cur.version });
    const seen: BreadcrumbEvent[] = [];
    for await (const e of s.client.replay({ schema_name: "test.replay.v1" }, { since, pageSize: 2 }))
      seen.push(e);
    expect(seen.map((e) => e.version)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((e) => e.seq)).toEqual([...seen.map((e) => e.seq)].sort((x, y) => x - y));
    const after = [];
    for await (const e of s.client.replay({ schema_name: "test.replay.v1" }, { after: seen[2]!.seq }))
      after.push(e.version);
    expect(after).toEqual([4, 5]);
  });

  it("writes replies with the trigger's session tag and an idempotency key", async () => {
    const trigger = await s.client.create({
      schema_name: "chat.message.v1",
      title: "hi",
      tags: ["user:message", "session:r1"],
      context: { role: "user", content: "hi", session_id: "r1" },
    });
    const a = (await s.client.respond(trigger, "hello", { agentId: "sdk-test" }))!;
    const again = await s.client.respond(trigger, "hello", { agentId: "sdk-test" });
    expect(again?.id).toBe(a.id);
    // A redelivered trigger whose handler now says something else: the first answer stands.
    expect(await s.client.respond(trigger, "something else", { agentId: "sdk-test" })).toBeNull();
    expect(await s.client.list({ schema_name: "agent.response.v1", tag: ["session:r1"] })).toMatchObject({
      items: [{ id: a.id }],
    });
    expect(a.tags).toEqual(expect.arrayContaining(["agent:response", "session:r1"]));
    expect(a.context).toMatchObject({ session_id: "r1", in_reply_to: { id: trigger.id, version: 1 } });
  });

  it("types a known schema's context from the selector, and an AbortSignal ends the loop after the event in hand", async () => {
    const stop = new AbortController();
    const sub = await s.client.subscribe({ schema_name: "chat.message.v1", any_tags: ["sdk:typed"] }, { signal: stop.signal });
    const seen: string[] = [];
    const loop = (async () => {
      for await (const { event } of sub) {
        expectTypeOf(event.breadcrumb.context).toEqualTypeOf<ChatMessageContext>();
        seen.push(event.breadcrumb.context.content);
        stop.abort();
      }
    })();
    await s.client.create({ schema_name: "chat.message.v1", title: "t", tags: ["sdk:typed"], context: { role: "user", content: "typed", session_id: "t1" } });
    await loop;
    expect(seen).toEqual(["typed"]);
    await sub.closed;
    const b = await s.client.get((await s.client.list({ schema_name: "chat.message.v1", tag: ["sdk:typed"] })).items[0]!.id);
    expectTypeOf(b.context).toEqualTypeOf<Record<string, unknown>>();
    if (hasSchema(b, "chat.message.v1")) expectTypeOf(b.context.session_id).toEqualTypeOf<string>();
    expect(hasSchema(b, "chat.message.v1")).toBe(true);
  });

  it("rejects an aborted call with the signal's reason, and a slow API with ApiTimeoutError", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("user gave up"));
    await expect(s.client.list({}, { signal: aborted.signal })).rejects.toThrow("user gave up");
    const midway = new AbortController();
    const slow: typeof fetch = (input, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason), { once: true }));
    const c = new CrumbsClient({ url: s.api.url, token: "x", fetch: slow, timeoutMs: 200 });
    const pending = c.get("00000000-0000-4000-8000-000000000000", { signal: midway.signal });
    midway.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(c.get("00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it("reports an API that is not there as ApiUnreachableError", async () => {
    const c = new CrumbsClient({ url: "http://127.0.0.1:1", token: "x" });
    await expect(c.list()).rejects.toMatchObject({ code: "api_unreachable" });
  });
});
