import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@crumbs/testkit";
import { apiKeys } from "../src/db/schema.ts";
import { hashToken } from "../src/http/auth.ts";
import { startStack, type TestStack } from "./stack.ts";

const note = (title: string, tags: string[], context: Record<string, unknown> = {}) => ({
  schema_name: "test.note.v1",
  title,
  tags,
  context,
});

describe("HTTP API endpoints", () => {
  let s: TestStack;
  const otherToken = "other-owner-token-abcdef";

  beforeAll(async () => {
    s = await startStack();
    await s.database.db.insert(apiKeys).values({
      id: randomUUID(),
      owner: "team2",
      name: "ci",
      token_hash: hashToken(otherToken),
      scopes: ["read", "write"],
    });
  });
  afterAll(() => s?.dispose());

  const create = async (body: unknown, token?: string) => {
    const res = await s.call("/v1/breadcrumbs", { method: "POST", json: body, token });
    expect(res.status).toBe(201);
    return res.json();
  };

  it("searches titles as plain, case-insensitive substrings", async () => {
    for (const title of ["Checkout 50% off", "CHECKOUT page", "Checkout 500 off", "cart"]) await create(note(title, ["title-search"]));
    const titles = async (q: string) =>
      ((await (await s.call(`/v1/breadcrumbs?tag=title-search&title=${encodeURIComponent(q)}`)).json()).items as { title: string }[])
        .map((b) => b.title)
        .sort();
    expect(await titles("checkout")).toEqual(["CHECKOUT page", "Checkout 50% off", "Checkout 500 off"]);
    expect(await titles("50%")).toEqual(["Checkout 50% off"]); // % is a character here, not a wildcard
    expect(await titles("c_rt")).toEqual([]);
    expect((await s.call("/v1/breadcrumbs?title=")).status).toBe(400);
  });

  it("lists with tag, any_tag, schema_name, selector filters and a cursor that never repeats or skips", async () => {
    for (let i = 0; i < 7; i++) await create(note(`n${i}`, ["list", i % 2 ? "odd" : "even"], { i, url: `https://x/${i}` }));
    await create({ ...note("other schema", ["list"]), schema_name: "test.other.v1" });

    const all = await (await s.call("/v1/breadcrumbs?tag=list&schema_name=test.note.v1&limit=3")).json();
    expect(all.items).toHaveLength(3);
    expect(all.items[0].title).toBe("n6"); // most recently updated first
    const seen = [...all.items];
    let cursor = all.next_cursor;
    while (cursor) {
      const next = await (await s.call(`/v1/breadcrumbs?tag=list&schema_name=test.note.v1&limit=3&cursor=${cursor}`)).json();
      seen.push(...next.items);
      cursor = next.next_cursor;
    }
    expect(seen.map((b) => b.title)).toEqual(["n6", "n5", "n4", "n3", "n2", "n1", "n0"]);

    const both = await (await s.call("/v1/breadcrumbs?tag=list&tag=odd")).json();
    expect(both.items.map((b: { title: string }) => b.title)).toEqual(["n5", "n3", "n1"]);
    const any = await (await s.call("/v1/breadcrumbs?any_tag=odd&any_tag=nope")).json();
    expect(any.items).toHaveLength(3);

    const selector = encodeURIComponent(
      JSON.stringify({ schema_name: "test.note.v1", context_match: [{ path: "$.i", op: "gte", value: 4 }] }),
    );
    const sel = await (await s.call(`/v1/breadcrumbs?selector=${selector}&limit=2`)).json();
    expect(sel.items.map((b: { title: string }) => b.title)).toEqual(["n6", "n5"]);
    const sel2 = await (await s.call(`/v1/breadcrumbs?selector=${selector}&limit=2&cursor=${sel.next_cursor}`)).json();
    expect(sel2.items.map((b: { title: string }) => b.title)).toEqual(["n4"]);
    expect(sel2.next_cursor).toBeNull();
  });

  it("replays the first response for a repeated Idempotency-Key, and refuses the key with another body", async () => {
    const body = note("once", ["idem"]);
    const first = await s.call("/v1/breadcrumbs", { method: "POST", json: body, headers: { "idempotency-key": "k1" } });
    const again = await s.call("/v1/breadcrumbs", { method: "POST", json: body, headers: { "idempotency-key": "k1" } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("etag")).toBe('"1"');
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    const listed = await (await s.call("/v1/breadcrumbs?tag=idem")).json();
    expect(listed.items).toHaveLength(1);

    const other = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: note("different", ["idem"]),
      headers: { "idempotency-key": "k1" },
    });
    expect(other.status).toBe(422);
    expect((await other.json()).error).toBe("idempotency_key_reused");

    // Concurrent duplicates: one write, the same answer for all.
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        s.call("/v1/breadcrumbs", { method: "POST", json: note("race", ["idem-race"]), headers: { "idempotency-key": "k2" } }),
      ),
    );
    const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).id)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(ids.size).toBe(1);
  });

  it("requires If-Match on PATCH, deletes with an event, and keeps history after delete", async () => {
    const b = await create(note("to delete", ["del"]));
    const noMatch = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "PATCH", json: { title: "x" } });
    expect(noMatch.status).toBe(428);
    expect((await noMatch.json()).error).toBe("precondition_required");

    const staleDelete = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "DELETE", headers: { "if-match": '"7"' } });
    expect(staleDelete.status).toBe(412);
    const del = await s.call(`/v1/breadcrumbs/${b.id}`, { method: "DELETE", headers: { "if-match": '"1"' } });
    expect(del.status).toBe(204);
    expect((await s.call(`/v1/breadcrumbs/${b.id}`)).status).toBe(404);
    expect((await s.call(`/v1/breadcrumbs/${b.id}`, { method: "DELETE" })).status).toBe(404);

    const history = await (await s.call(`/v1/breadcrumbs/${b.id}/history`)).json();
    expect(history.items.map((i: { event: string }) => i.event)).toEqual(["created", "deleted"]);
    const events = await (await s.call(`/v1/events?after=${history.items[0].seq - 1}&limit=2`)).json();
    expect(events.items.map((e: { type: string }) => e.type)).toEqual(["breadcrumb.created", "breadcrumb.deleted"]);
    expect(events.items[1].breadcrumb.title).toBe("to delete");
  });

  it("scopes every read and write to the token's owner", async () => {
    const mine = await create(note("owned by default", ["own"]));
    const theirs = await create(note("owned by team2", ["own"]), otherToken);
    expect(theirs.owner).toBe("team2");
    expect(theirs.created_by).toBe("key:ci");
    const seenByTeam2 = await (await s.call("/v1/breadcrumbs?tag=own", { token: otherToken })).json();
    expect(seenByTeam2.items.map((b: { id: string }) => b.id)).toEqual([theirs.id]);
    expect((await s.call(`/v1/breadcrumbs/${mine.id}`, { token: otherToken })).status).toBe(404);
    const patch = await s.call(`/v1/breadcrumbs/${mine.id}`, {
      method: "PATCH",
      token: otherToken,
      headers: { "if-match": '"1"' },
      json: { title: "hijack" },
    });
    expect(patch.status).toBe(404);
    expect((await s.call(`/v1/breadcrumbs/${mine.id}/history`, { token: otherToken })).status).toBe(404);
    const events = await (await s.call("/v1/events", { token: otherToken })).json();
    // team2 wrote one breadcrumb, so its event list is not empty: "every" below cannot pass vacuously.
    expect(events.items.map((e: { breadcrumb: { id: string } }) => e.breadcrumb.id)).toContain(theirs.id);
    expect(events.items.every((e: { owner: string }) => e.owner === "team2")).toBe(true);

    for (const token of [null, "wrong-token"]) {
      const res = await s.call("/v1/breadcrumbs", { token });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("unauthorized");
    }
  });

  it("hides expired breadcrumbs", async () => {
    const b = await create({ ...note("short-lived", ["ttl"]), ttl_seconds: 1 });
    expect(b.expires_at).toBeDefined();
    expect((await s.call(`/v1/breadcrumbs/${b.id}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await s.call(`/v1/breadcrumbs/${b.id}`)).status).toBe(404);
  });

  it("extends a breadcrumb's expiry with a PATCH of ttl_seconds, in one event, and refuses a TTL out of range", async () => {
    const lease = await create({ ...note("a lease", ["ttl-extend"]), ttl_seconds: 60 });
    const res = await s.call(`/v1/breadcrumbs/${lease.id}`, { method: "PATCH", json: { ttl_seconds: 3_600 }, headers: { "if-match": '"1"' } });
    expect(res.status).toBe(200);
    const extended = await res.json();
    expect(extended.version).toBe(2);
    expect(extended.title).toBe("a lease");
    // The new expiry counts from the write itself, by the server's clock.
    expect(Date.parse(extended.expires_at) - Date.parse(extended.updated_at)).toBe(3_600_000);
    const history = await (await s.call(`/v1/breadcrumbs/${lease.id}/history`)).json();
    expect(history.items.map((i: { event: string }) => i.event)).toEqual(["created", "updated"]);

    const zero = await s.call(`/v1/breadcrumbs/${lease.id}`, { method: "PATCH", json: { ttl_seconds: 0 }, headers: { "if-match": '"2"' } });
    expect(zero.status).toBe(400);
    expect((await zero.json()).message).toContain("ttl_seconds");
    expect((await (await s.call(`/v1/breadcrumbs/${lease.id}`)).json()).version).toBe(2);
  });

  it("serves health, readiness, metrics and OpenAPI without a token", async () => {
    expect((await s.call("/healthz", { token: null })).status).toBe(200);
    const ready = await s.call("/readyz", { token: null });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ postgres: true, nats: true });
    const metrics = await (await s.call("/metrics", { token: null })).text();
    expect(metrics).toMatch(/crumbs_http_requests_total\{method="POST",route="\/v1\/breadcrumbs",status="201"\} \d+/);
    expect(metrics).toContain("crumbs_outbox_backlog");
    expect(metrics).toMatch(/crumbs_outbox_published_total [1-9]/);
    const openapi = await (await s.call("/openapi.json", { token: null })).json();
    expect(openapi.openapi).toBe("3.1.0");
    expect(openapi.paths["/v1/breadcrumbs/{id}"].patch).toBeDefined();
    expect(openapi.components.schemas.CreateBreadcrumb.properties.schema_name).toBeDefined();
  });

  it("answers 503 on readiness when NATS is gone", async () => {
    await s.natsServer.stop();
    const down = await waitFor(async () => {
      const res = await s.call("/readyz", { token: null });
      return res.status === 503 ? res.json() : undefined;
    });
    expect(down).toMatchObject({ postgres: true, nats: false });
    await s.natsServer.start();
    await waitFor(async () => (await s.call("/readyz", { token: null })).status === 200, { message: "ready again" });
  });
});
