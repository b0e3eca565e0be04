import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StringCodec } from "nats";
import { REFERENCE_PAGE_CONTEXT, STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { startStack, type TestStack } from "./stack.ts";

/** Unbounded growth is a fault too: a living breadcrumb rewritten forever, and breadcrumbs that should die. */
describe("retention and TTL expiry", () => {
  let s: TestStack;
  beforeAll(async () => {
    s = await startStack({
      CRUMBS_RETENTION: JSON.stringify({ "browser.page.context.v1": { max_versions: 100 }, "test.aged.v1": { max_age: "1s" } }),
      // Sweeps are driven by the test; the timer must not race its assertions.
      CRUMBS_SWEEP_MS: "600000",
      CRUMBS_RELAY_POLL_MS: "50",
    });
  });
  afterAll(() => s?.dispose());

  const page = (n: number) => ({ ...REFERENCE_PAGE_CONTEXT, url: `https://example.com/${n}` });

  async function patchMany(id: string, from: number, count: number, context: (n: number) => object = page) {
    for (let v = from; v < from + count; v++) {
      const res = await s.call(`/v1/breadcrumbs/${id}`, {
        method: "PATCH",
        headers: { "if-match": `"${v}"` },
        json: { title: `v${v + 1}`, context: context(v) },
      });
      expect(res.status).toBe(200);
    }
  }

  it("keeps the newest 100 of 1,200 versions, pruning while writes go on", async () => {
    const created = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "browser.page.context.v1", title: "living", key: "browser.page.context:ext1", context: page(0) },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await patchMany(id, 1, 599);
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "outbox drained" });
    // Prune in the middle of the second half of the writes: neither may wait on the other.
    const [, midSweep] = await Promise.all([patchMany(id, 600, 600), s.sweeper.sweep()]);
    expect(midSweep.pruned).toBeGreaterThan(0);
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "outbox drained" });
    await s.sweeper.sweep();

    const res = await s.call(`/v1/breadcrumbs/${id}/history?limit=500`);
    const kept = (await res.json()) as { items: { version: number; seq: number }[]; next_cursor: string | null };
    expect(kept.items.map((i) => i.version)).toEqual(Array.from({ length: 100 }, (_, i) => 1_101 + i));
    expect(kept.next_cursor).toBeNull();
    // Every event was published (the relay deleted each outbox row after its ack), pruned or kept.
    expect(await s.count("breadcrumb_history")).toBe(100);
    expect(await s.count("outbox")).toBe(0);

    // Replay from a pruned seq starts at the oldest kept one instead of failing.
    const events = (await (await s.call("/v1/events?after=1&limit=5")).json()) as { items: { version: number }[] };
    expect(events.items[0]?.version).toBe(1_101);
    // The live row is untouched.
    const current = (await (await s.call(`/v1/breadcrumbs/${id}`)).json()) as { version: number };
    expect(current.version).toBe(1_200);
  }, 120_000);

  it("drops history older than max_age but always keeps the newest version", async () => {
    const created = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.aged.v1", title: "aged", context: { n: 1 } },
    });
    const { id } = (await created.json()) as { id: string };
    await patchMany(id, 1, 4, (n) => ({ n }));
    await waitFor(async () => (await s.relay.backlog()) === 0, { message: "outbox drained" });
    await new Promise((r) => setTimeout(r, 1_100));
    await s.sweeper.sweep();
    const aged = (await (await s.call(`/v1/breadcrumbs/${id}/history`)).json()) as { items: { version: number }[] };
    expect(aged.items.map((i) => i.version)).toEqual([5]);
  });

  it("never prunes an event the relay has not published yet", async () => {
    await s.natsServer.stop();
    await waitFor(() => !s.nats.connected(), { message: "API sees NATS down" });
    const created = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.aged.v1", title: "unpublished", context: { n: 1 } },
    });
    const { id } = (await created.json()) as { id: string };
    await patchMany(id, 1, 2, (n) => ({ n }));
    await new Promise((r) => setTimeout(r, 1_100));
    await s.sweeper.sweep();
    const before = (await (await s.call(`/v1/breadcrumbs/${id}/history`)).json()) as { items: unknown[] };
    expect(before.items).toHaveLength(3);
    await s.natsServer.start();
    await waitFor(async () => (await s.relay.backlog()) === 0, { timeout: 20_000, message: "outbox drained after NATS returned" });
    await s.sweeper.sweep();
    const after = (await (await s.call(`/v1/breadcrumbs/${id}/history`)).json()) as { items: unknown[] };
    expect(after.items).toHaveLength(1);
  }, 60_000);

  it("expires a breadcrumb past its TTL with one deleted event, on NATS too, and frees its key", async () => {
    const created = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.ttl.v1", title: "short-lived", key: "ttl-key", ttl_seconds: 1, context: { n: 1 } },
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await s.sweeper.sweep()).expired).toBe(0);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await s.sweeper.sweep()).expired).toBe(1);
    expect((await s.sweeper.sweep()).expired).toBe(0);

    const history = (await (await s.call(`/v1/breadcrumbs/${id}/history`)).json()) as { items: { event: string }[] };
    expect(history.items.map((i) => i.event)).toEqual(["created", "deleted"]);
    expect((await s.call(`/v1/breadcrumbs/${id}`)).status).toBe(404);
    const again = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.ttl.v1", title: "key reused", key: "ttl-key", context: { n: 2 } },
    });
    expect(again.status).toBe(201);

    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    const msg = await waitFor(
      () => jsm.streams.getMessage(STREAM_NAME, { last_by_subj: "crumbs.default.deleted.test.ttl.v1" }).catch(() => undefined),
      { message: "deleted event on NATS" },
    );
    const event = JSON.parse(StringCodec().decode(msg.data)) as { type: string; id: string; version: number };
    expect(event).toMatchObject({ type: "breadcrumb.deleted", id, version: 1 });
  }, 30_000);
});
