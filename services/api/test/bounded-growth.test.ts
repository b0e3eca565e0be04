import { connect, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { DiscardPolicy, nanos } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_NAME } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { rowsOf } from "../src/db/database.ts";
import { ensureStream } from "../src/nats/stream.ts";
import { startStack, TOKEN, type TestStack } from "./stack.ts";

/** Nothing one client does grows without bound: the stream, idempotency keys, outbox rows, SSE streams, failed logins. */
describe("bounded growth", () => {
  let s: TestStack;
  let url: string;
  let bob: string;

  beforeAll(async () => {
    s = await startStack({
      CRUMBS_SWEEP_MS: "600000",
      CRUMBS_STREAM_MAX_AGE_SECONDS: "3600",
      CRUMBS_STREAM_MAX_BYTES: String(16 * 1024 * 1024),
      CRUMBS_IDEMPOTENCY_TTL_SECONDS: "60",
      CRUMBS_SSE_MAX_PER_OWNER: "2",
      CRUMBS_AUTH_FAIL_RATE_LIMIT: "1:5",
      CRUMBS_SSE_PING_MS: "100",
    });
    url = await s.serve();
    const res = await s.call("/v1/keys", { method: "POST", json: { owner: "bob", scopes: ["read", "write", "subscribe"] } });
    bob = ((await res.json()) as { token: string }).token;
  });
  afterAll(() => s?.dispose());

  const write = (title: string, headers: Record<string, string> = {}) =>
    s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.growth.v1", title, context: {} }, headers });

  it("the JetStream stream has the configured limits, also when it existed without them", async () => {
    const nc = await s.client();
    const jsm = await nc.jetstreamManager();
    const want = { max_age: nanos(3_600_000), max_bytes: 16 * 1024 * 1024, discard: DiscardPolicy.Old };
    expect((await jsm.streams.info(STREAM_NAME)).config).toMatchObject(want);
    // A stream made by an older version: unlimited, discard new.
    const { config } = await jsm.streams.info(STREAM_NAME);
    await jsm.streams.update(STREAM_NAME, { ...config, max_age: 0, max_bytes: -1, discard: DiscardPolicy.New });
    await ensureStream(nc, { maxAgeSeconds: 3_600, maxBytes: 16 * 1024 * 1024 });
    expect((await jsm.streams.info(STREAM_NAME)).config).toMatchObject(want);
  });

  it("idempotency keys past their TTL are pruned by the sweeper, and the key can be used afresh", async () => {
    expect((await write("old", { "idempotency-key": "old-key" })).status).toBe(201);
    expect((await write("new", { "idempotency-key": "new-key" })).status).toBe(201);
    await s.database.db.execute(sql`update idempotency_keys set created_at = now() - interval '2 minutes' where key = 'old-key'`);
    const swept = await s.sweeper.sweep();
    expect(swept.idempotencyKeys).toBe(1);
    const keys = rowsOf<{ key: string }>(await s.database.db.execute(sql`select key from idempotency_keys order by key`));
    expect(keys).toEqual([{ key: "new-key" }]);
    // An expired key no longer replays: the same request creates a new breadcrumb.
    const again = await write("old", { "idempotency-key": "old-key" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await write("new", { "idempotency-key": "new-key" })).headers.get("idempotent-replayed")).toBe("true");
  });

  it("a published event leaves the outbox with its publish; history and replay keep it", async () => {
    const jsm = await (await s.client()).jetstreamManager();
    const events = async () => ((await (await s.call("/v1/events?limit=1000")).json()) as { items: unknown[] }).items.length;
    await waitFor(async () => (await s.count("outbox")) === 0, { message: "earlier writes published" });
    const published = (await jsm.streams.info(STREAM_NAME)).state.last_seq;
    const replayed = await events();
    for (let i = 0; i < 3; i++) expect((await write(`o${i}`)).status).toBe(201);
    await waitFor(async () => (await s.count("outbox")) === 0, { message: "the outbox emptied by the relay, no sweep" });
    expect((await jsm.streams.info(STREAM_NAME)).state.last_seq).toBe(published + 3);
    expect(await events()).toBe(replayed + 3);
    expect(await events()).toBe(await s.count("breadcrumb_history"));
  });

  it("open SSE streams per owner are capped with 429, whichever of its keys opens them; another owner is unaffected and a closed stream frees its slot", async () => {
    const open = (token: string) => {
      const ac = new AbortController();
      return fetch(`${url}/v1/events/stream`, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal }).then((res) => ({ res, ac }));
    };
    const first = await open(TOKEN);
    const second = await open(TOKEN);
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    // Another key of the same owner shares the owner's streams: minting keys gains nothing.
    const sameOwner = await s.call("/v1/keys", { method: "POST", json: { owner: "default", scopes: ["subscribe"] } });
    const third = await open(((await sameOwner.json()) as { token: string }).token);
    expect(third.res.status).toBe(429);
    expect(third.res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await third.res.json()).toMatchObject({ error: "rate_limited", details: { limit: { name: "open event streams", max: 2, unit: "streams" } } });
    const other = await open(bob);
    expect(other.res.status).toBe(200);
    first.ac.abort();
    const reopened = await waitFor(
      async () => {
        const r = await open(TOKEN);
        if (r.res.status === 200) return r;
        await r.res.body?.cancel();
        return undefined;
      },
      { timeout: 10_000, message: "a slot freed after a stream closed" },
    );
    for (const r of [second, other, reopened]) r.ac.abort();
  });

  it("a stream whose client stopped reading is closed and frees its slot", async () => {
    // An owner of its own: the streams the test before aborted free their slots only when the server
    // next writes to them, so bob may still hold one here, and a stalled request would get 429.
    const keyRes = await s.call("/v1/keys", { method: "POST", json: { owner: "carol", scopes: ["read", "write", "subscribe"] } });
    const bob = ((await keyRes.json()) as { token: string }).token;
    const { hostname, port } = new URL(url);
    // Both stalled streams must hold their slots before the third request is tried: started
    // together, the third could take a slot first and one of them would get the 429 instead.
    const stalled: Socket[] = [];
    for (let i = 0; i < 2; i++) {
      const sock = connect(Number(port), hostname);
      sock.on("error", () => {});
      const head = new Promise<string>((resolve) => sock.once("data", (d: Buffer) => resolve(d.toString())));
      sock.write(`GET /v1/events/stream HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${bob}\r\n\r\n`);
      expect(await head).toMatch(/^HTTP\/1\.1 200/);
      sock.pause(); // never reads again: a dead peer, as far as the server can tell
      stalled.push(sock);
    }
    try {
      const third = await waitFor(
        async () => {
          const res = await fetch(`${url}/v1/events/stream`, { headers: { authorization: `Bearer ${bob}` } });
          if (res.status === 429) return res;
          await res.body?.cancel();
          return undefined;
        },
        { message: "both stalled streams hold a slot" },
      );
      await third.body?.cancel();
      // Events of ~900 KB fill the socket buffers of the stalled streams; their heartbeats stop draining.
      const blob = "z".repeat(900 * 1024);
      const freed = await waitFor(
        async () => {
          const w = await s.call("/v1/breadcrumbs", { method: "POST", token: bob, json: { schema_name: "test.growth.v1", title: "big", context: { blob } } });
          expect(w.status).toBe(201);
          const res = await fetch(`${url}/v1/events/stream`, { headers: { authorization: `Bearer ${bob}` } });
          if (res.status === 200) return res;
          await res.body?.cancel();
          return undefined;
        },
        { timeout: 30_000, interval: 200, message: "a stalled stream was closed and its slot freed" },
      );
      await freed.body?.cancel();
    } finally {
      for (const sock of stalled) sock.destroy();
    }
  }, 60_000);

  it("a flood of unknown tokens from one address gets 429 while a valid token still works", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${url}/v1/breadcrumbs`, { headers: { authorization: `Bearer guess-${i}-0123456789` } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        expect(await res.json()).toMatchObject({ error: "rate_limited" });
      } else await res.body?.cancel();
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6).every((st) => st === 429)).toBe(true);
    const valid = await fetch(`${url}/v1/breadcrumbs?limit=1`, { headers: { authorization: `Bearer ${bob}` } });
    expect(valid.status).toBe(200);
  });
});
