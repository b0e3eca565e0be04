import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { StringCodec, type Msg } from "nats";
import { waitFor } from "@crumbs/testkit";
import { applyMergePatch, breadcrumbEventSchema, MERGE_PATCH_CONTENT_TYPE, MERGE_PATCH_EXAMPLES, REFERENCE_PAGE_CONTEXT } from "@crumbs/schemas";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

const sc = StringCodec();
const page = structuredClone(REFERENCE_PAGE_CONTEXT) as Record<string, unknown> & { viewport: Record<string, unknown>; content: Record<string, unknown> };

// Real Postgres and nats-server: the contract's merge is stored by the one write statement, and the
// event it writes reaches NATS.
describe("PATCH as application/merge-patch+json", () => {
  let s: TestStack;
  const events: Record<string, unknown>[] = [];

  beforeAll(async () => {
    s = await startStack({ CRUMBS_RELAY_POLL_MS: "100" });
    const nc = await s.client();
    nc.subscribe("crumbs.*.updated.>", { callback: (_e, m: Msg) => events.push(JSON.parse(sc.decode(m.data)) as Record<string, unknown>) });
    await nc.flush();
  });
  afterAll(() => s?.dispose());

  const create = async (token?: string, context: Record<string, unknown> = page) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", token, json: { schema_name: "browser.page.context.v1", title: "Browser", context } });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; version: number; context: Record<string, unknown> };
  };
  const mergePatch = (id: string, body: unknown, ifMatch: string | undefined, token?: string, extra: Record<string, string> = {}) =>
    s.call(`/v1/breadcrumbs/${id}`, {
      method: "PATCH",
      token,
      headers: { "content-type": MERGE_PATCH_CONTENT_TYPE, ...(ifMatch ? { "if-match": ifMatch } : {}), ...extra },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const historyCount = async (id: string) =>
    Number(rowsOf<{ n: string }>(await s.database.db.execute(sql`select count(*)::text as n from breadcrumb_history where breadcrumb_id = ${id}::uuid`))[0]?.n);

  it("stores the RFC 7396 merge (its examples, nested objects, null deletes, arrays replaced whole) and reads it back", async () => {
    const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
    // A breadcrumb's context is an object, so the examples whose target, patch or result is not one
    // are held only by the contract's own unit test.
    const cases = MERGE_PATCH_EXAMPLES.filter((e) => isObject(e.target) && isObject(e.patch) && isObject(e.result));
    expect(cases.length).toBeGreaterThan(5);
    for (const { target, patch, result } of cases) {
      const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.merge.v1", title: "m", context: target } });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      expect((await mergePatch(id, { context: patch }, '"1"')).status).toBe(200);
      const stored = (await (await s.call(`/v1/breadcrumbs/${id}`)).json()) as { context: unknown };
      expect(stored.context, JSON.stringify({ target, patch })).toEqual(result);
    }
  });

  it("merges the context, answers the new version, and the event names the top-level keys it changed", async () => {
    const b = await create();
    const patch = {
      context: { viewport: { scrollY: 900 }, content: { mainText: "New text", headings: ["Only one"] }, favicon: null },
      title: "Browser: moved",
    };
    const res = await mergePatch(b.id, patch, '"1"');
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe('"2"');
    const body = (await res.json()) as { version: number; title: string; context: unknown };
    const expected = applyMergePatch(page, patch.context) as Record<string, unknown>;
    expect(body).toMatchObject({ version: 2, title: "Browser: moved" });
    expect(body.context).toEqual(expected);
    expect(expected).not.toHaveProperty("favicon");
    expect((expected.viewport as Record<string, unknown>).width).toBe(page.viewport.width); // siblings kept

    const stored = (await (await s.call(`/v1/breadcrumbs/${b.id}`)).json()) as { context: unknown };
    expect(stored.context).toEqual(expected);

    await waitFor(() => events.some((e) => e.id === b.id && e.version === 2));
    const onBus = events.find((e) => e.id === b.id && e.version === 2)!;
    expect(breadcrumbEventSchema.parse(onBus).changed).toEqual(["content", "favicon", "viewport"]);
    // Replay from history gives the same event.
    const page1 = (await (await s.call(`/v1/events?after=0&limit=1000`)).json()) as { items: Record<string, unknown>[] };
    expect(page1.items.find((e) => e.id === b.id && e.version === 2)).toEqual(onBus);
    // A whole-context (application/json) update says nothing about which keys changed.
    const full = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "PATCH", headers: { "if-match": '"2"' }, json: { context: page } });
    expect(full.status).toBe(200);
    await waitFor(() => events.some((e) => e.id === b.id && e.version === 3));
    expect(events.find((e) => e.id === b.id && e.version === 3)).not.toHaveProperty("changed");
  });

  it("412 on a stale If-Match and 428 without one; nothing written", async () => {
    const b = await create();
    expect((await mergePatch(b.id, { context: { title: "x" } }, '"1"')).status).toBe(200);
    const stale = await mergePatch(b.id, { context: { title: "lost" } }, '"1"');
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ error: "version_mismatch", details: { current_version: 2 } });
    const missing = await mergePatch(b.id, { context: { title: "lost" } }, undefined);
    expect(missing.status).toBe(428);
    expect(await historyCount(b.id)).toBe(2);
  });

  it("a version this process wrote and remembers, changed since by another writer, is still a 412", async () => {
    const b = await create();
    const full = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "PATCH", headers: { "if-match": '"1"' }, json: { context: page } });
    expect(full.status).toBe(200);
    // Another replica's write: this process still holds version 2's context.
    await s.database.db.execute(sql`update breadcrumbs set version = 3, context = '{"url":"u","domain":"d","title":"other"}' where id = ${b.id}::uuid`);
    const stale = await mergePatch(b.id, { context: { title: "lost" } }, '"2"');
    expect(stale.status).toBe(412);
    expect(await stale.json()).toMatchObject({ error: "version_mismatch", details: { current_version: 3 } });
    const fresh = await mergePatch(b.id, { context: { title: "kept" } }, '"3"');
    expect(((await fresh.json()) as { context: unknown }).context).toEqual({ url: "u", domain: "d", title: "kept" });
    // On a remembered version too, a merged context that breaks the schema writes nothing.
    const bad = await mergePatch(b.id, { context: { url: null } }, '"4"');
    expect(bad.status).toBe(422);
  });

  it("422 when the merged context breaks its schema (removing a required key); nothing written", async () => {
    const b = await create();
    const res = await mergePatch(b.id, { context: { url: null } }, '"1"');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: "schema_validation_failed" });
    const bad = await mergePatch(b.id, { context: { viewport: { width: "wide" } } }, '"1"');
    expect(bad.status).toBe(422);
    expect(await historyCount(b.id)).toBe(1);
    expect(((await (await s.call(`/v1/breadcrumbs/${b.id}`)).json()) as { version: number }).version).toBe(1);
  });

  it("a bad patch is 400 with the JSON error shape", async () => {
    const b = await create();
    for (const body of [{ context: [1] }, { context: null }, { title: null }, { llm_hints: null }, {}, [{ op: "add" }], "{not json"]) {
      const res = await mergePatch(b.id, body, '"1"');
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: string; message: string };
      expect(err.error, JSON.stringify(body)).toMatch(/^invalid_(request|json)$/);
      expect(typeof err.message).toBe("string");
    }
    expect(await historyCount(b.id)).toBe(1);
  });

  it("another owner's breadcrumb is a 404 and stays as it was", async () => {
    const keyRes = await s.call("/v1/keys", { method: "POST", json: { owner: "other", scopes: ["read", "write"], name: "other" } });
    expect(keyRes.status).toBe(201);
    const other = ((await keyRes.json()) as { token: string }).token;
    const mine = await create();
    const res = await mergePatch(mine.id, { context: { title: "taken" } }, '"1"', other);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
    expect(((await (await s.call(`/v1/breadcrumbs/${mine.id}`)).json()) as { version: number }).version).toBe(1);
    // Its own breadcrumb it patches as usual.
    const theirs = await create(other);
    expect((await mergePatch(theirs.id, { context: { title: "theirs" } }, '"1"', other)).status).toBe(200);
  });

  it("an Idempotency-Key replays the first answer; the same key with a JSON PATCH of the same body is another request", async () => {
    const b = await create();
    const body = { context: { title: "once" } };
    const first = await mergePatch(b.id, body, '"1"', undefined, { "idempotency-key": "mp-1" });
    const again = await mergePatch(b.id, body, '"1"', undefined, { "idempotency-key": "mp-1" });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const asJson = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "PATCH", headers: { "if-match": '"1"', "idempotency-key": "mp-1" }, json: body });
    expect(asJson.status).toBe(422);
    expect(await asJson.json()).toMatchObject({ error: "idempotency_key_reused" });
  });
});
