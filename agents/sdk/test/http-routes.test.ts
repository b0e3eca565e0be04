import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNatsTrust } from "@crumbs/api";
import { ApiResponseError, CrumbsHttp, type EventStreamItem } from "@crumbs/agent-sdk";
import { startStack, TOKEN, type TestStack } from "../../runner/test/stack.ts";

// The routes besides breadcrumbs and events, through the SDK's typed calls, against the real API
// (with an account seed, so it mints NATS credentials).
describe("CrumbsHttp: keys, NATS credentials, outbox, stats, consumers and the event stream", () => {
  let s: TestStack;
  let http: CrumbsHttp;
  beforeAll(async () => {
    s = await startStack({ trust: createNatsTrust() });
    http = new CrumbsHttp({ url: s.api.url, token: TOKEN });
  });
  afterAll(async () => s?.close());

  it("creates a key whose token works once shown, lists and reads it without the token, and revokes it", async () => {
    const key = await http.createKey({ owner: "sdk-team", scopes: ["read"], name: "laptop", expires_in: "1h" });
    expect(key).toMatchObject({ owner: "sdk-team", scopes: ["read"], name: "laptop", revoked_at: null });
    expect(Date.parse(key.expires_at ?? "") - Date.now()).toBeGreaterThan(3_500_000);
    const asKey = new CrumbsHttp({ url: s.api.url, token: key.token });
    expect((await asKey.list()).items).toEqual([]);

    const { items } = await http.listKeys({ owner: "sdk-team" });
    expect(items.map((k) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(items)).not.toContain(key.token);
    expect(await http.getKey(key.id)).toMatchObject({ id: key.id, owner: "sdk-team" });

    await http.revokeKey(key.id);
    await expect(asKey.list()).rejects.toMatchObject({ code: "unauthorized", status: 401 });
    const bad = await http.createKey({ owner: "x", scopes: ["fly" as "read"] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ApiResponseError);
    expect(bad).toMatchObject({ code: "invalid_request", details: { issues: [expect.objectContaining({ path: ["scopes", 0] })] } });
  });

  it("mints NATS credentials for the token's owner, and an extension's bound to its consumer", async () => {
    const agent = await http.natsCredentials();
    expect(agent).toMatchObject({ owner: "default", kind: "agent", permissions: { sub: ["*.default.>", "_INBOX.>"] } });
    expect(agent.creds).toContain("BEGIN NATS USER JWT");
    const ext = await http.natsCredentials({ kind: "extension", extension_id: "abc", ttl_seconds: 120 });
    expect(ext.extension).toMatchObject({ consumer: "crumbs-ext-default-abc" });
    await expect(http.natsCredentials({ kind: "extension" })).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("lists the parked outbox (empty) and refuses to retry a seq that is not parked", async () => {
    expect(await http.listParkedOutbox({ limit: 10 })).toEqual({ items: [], next_after: null });
    await expect(http.retryParkedOutbox({ seq: 999_999 })).rejects.toMatchObject({ code: "not_found", status: 404 });
  });

  it("counts live breadcrumbs per schema and lists an agent's consumers", async () => {
    for (const n of [1, 2]) await http.create({ schema_name: "test.count.v1", title: `c${n}`, context: {} });
    const { items } = await http.schemaCounts();
    expect(items).toContainEqual({ schema_name: "test.count.v1", count: 2 });
    expect(await http.agentConsumers("nobody-runs-me")).toEqual({ items: [] });
  });

  it("streams events live: open first, then each write with the seq to resume from; a resume misses nothing; abort ends it", async () => {
    const stop = new AbortController();
    const items: EventStreamItem[] = [];
    const stream = http.streamEvents({ selector: { schema_name: "test.stream.v1" } }, { signal: stop.signal });
    const reading = (async () => {
      for await (const item of stream) {
        items.push(item);
        if (item.kind === "open") await http.create({ schema_name: "test.stream.v1", title: "live", context: {} });
        if (item.kind === "event") stop.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
    expect(items[0]).toEqual({ kind: "open" });
    const event = items.find((i) => i.kind === "event");
    expect(event).toMatchObject({ event: { type: "breadcrumb.created", title: "live", breadcrumb: { title: "live" } } });
    const resumeFrom = event?.kind === "event" ? event.lastEventId : "";
    expect(resumeFrom).toBe(String(event?.kind === "event" && event.event.seq));

    // Written while nobody listens, then read by a connection that resumes after the last seq seen.
    const missed = await http.create({ schema_name: "test.stream.v1", title: "while away", context: {} });
    const again = new AbortController();
    const resumed: string[] = [];
    await (async () => {
      for await (const item of http.streamEvents({ selector: { schema_name: "test.stream.v1" }, after: resumeFrom }, { signal: again.signal })) {
        if (item.kind === "event") {
          resumed.push(item.event.id);
          again.abort();
        }
      }
    })().catch(() => {});
    expect(resumed).toEqual([missed.id]);
  });
});
