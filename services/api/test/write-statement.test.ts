import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import { breadcrumbEventOf, msgIdFor, subjectFor, type Breadcrumb, type EventTypeShort } from "@crumbs/schemas";
import { openDatabase } from "../src/db/open.ts";
import { migrate } from "../src/db/migrate.ts";
import { rowsOf, type Database } from "../src/db/database.ts";
import { breadcrumbContentCheck } from "../src/http/validate-write.ts";
import { createBreadcrumb } from "../src/store/create.ts";
import { patchBreadcrumb } from "../src/store/patch.ts";
import { deleteBreadcrumb } from "../src/store/delete.ts";
import { getBreadcrumb } from "../src/store/read.ts";
import type { CommittedEvent } from "../src/store/committed-event.ts";
import type { StoreDeps } from "../src/store/store-deps.ts";
import type { WriteResult } from "../src/store/write.ts";
import { JsonText } from "../src/store/write-statement.ts";
import { columnCompression, serverHasLz4 } from "./compression.ts";

/** The answer's body as a client reads it: a write's own answer is JSON text, a replayed one a value. */
const bodyOf = (r: WriteResult) =>
  (r.response.body instanceof JsonText ? JSON.parse(r.response.body.text) : r.response.body) as Record<string, unknown>;

// Real Postgres: what matters here is what the single write statement leaves in the tables.
describe("one-statement writes", () => {
  let pg: TestDatabase;
  let database: Database;
  let deps: StoreDeps;
  const commits: string[] = [];
  const handed: CommittedEvent[] = [];
  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_write");
    database = await openDatabase({ databaseUrl: pg.url });
    await migrate(database);
    deps = {
      database,
      now: () => new Date(),
      newId: randomUUID,
      onCommitted: (o, e) => {
        commits.push(o);
        if (e) handed.push(e);
      },
    };
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));
  const history = (id: string) =>
    rows<{ seq: string; event: string; version: number; breadcrumb: unknown; stored: unknown; at: Date | string }>(
      sql`select seq::text as seq, event, version, event_json::jsonb -> 'breadcrumb' as breadcrumb, breadcrumb as stored, at
          from breadcrumb_history where breadcrumb_id = ${id}::uuid order by seq`,
    );
  const outboxOf = (id: string) =>
    rows<{ seq: string; subject: string; msg_id: string; payload: Record<string, unknown> }>(
      sql`select o.seq::text as seq, o.subject, o.msg_id, h.event_json::jsonb as payload from outbox o join breadcrumb_history h on h.seq = o.seq where h.breadcrumb_id = ${id}::uuid order by o.seq`,
    );
  const owner = "default";
  const create = (body: Record<string, unknown>, idempotency?: { key: string; fingerprint: string }) =>
    createBreadcrumb(deps, { owner, actor: "admin", body: body as never, idempotency });

  it("writes the same breadcrumb JSON to the response, history and outbox, with one seq for all three", async () => {
    handed.length = 0;
    const created = await create({
      schema_name: "test.thing.v1",
      title: "t",
      tags: ["a", "b:c"],
      context: { n: 1, nested: { x: null } },
      key: `k-${randomUUID()}`,
      ttl_seconds: 3600,
    });
    const b = bodyOf(created);
    const id = b.id as string;
    // Same fields and key order as a read (breadcrumbFromRow): optional fields present only when set.
    const read = await getBreadcrumb(database.db, owner, id);
    expect(b).toEqual(read);
    expect(Object.keys(b)).toEqual(Object.keys(read));
    expect(b).not.toHaveProperty("llm_hints");
    expect(created.response.etag).toBe('"1"');

    const patched = await patchBreadcrumb(deps, {
      owner, actor: "admin", id, expectedVersion: 1, body: { title: "t2", llm_hints: null, context: { n: 2 } },
      validate: breadcrumbContentCheck,
    });
    const p = bodyOf(patched);
    expect(p).toEqual(await getBreadcrumb(database.db, owner, id));
    expect(Object.keys(p)).toEqual(Object.keys(await getBreadcrumb(database.db, owner, id)));
    await deleteBreadcrumb(deps, { owner, id, expectedVersion: 2 });

    const h = await history(id);
    expect(h.map((r) => r.event)).toEqual(["created", "updated", "deleted"]);
    expect(h[0]!.breadcrumb).toEqual(b);
    expect(h[1]!.breadcrumb).toEqual(p);
    expect(h[2]!.breadcrumb).toEqual(p);
    // The breadcrumb is kept once, in the event's text (migration 0014).
    expect(h.map((r) => r.stored)).toEqual([null, null, null]);
    const seqs = h.map((r) => Number(r.seq));
    expect(seqs[1]! - seqs[0]!).toBe(1);
    expect(seqs[2]! - seqs[1]!).toBe(1);

    const o = await outboxOf(id);
    expect(o.map((r) => r.seq)).toEqual(h.map((r) => r.seq));
    // The event each write hands to the relay is its outbox row as the relay would read it, and
    // names the owner's previous seq (the first write of this database's owner has none).
    const texts = await rows<{ seq: string; payload: string }>(
      sql`select o.seq::text as seq, h.event_json as payload from outbox o join breadcrumb_history h on h.seq = o.seq where h.breadcrumb_id = ${id}::uuid order by o.seq`,
    );
    expect(handed.map((e) => ({ seq: e.seq, subject: e.subject, msg_id: e.msg_id, payload: e.payload }))).toEqual(
      o.map((r, i) => ({ seq: r.seq, subject: r.subject, msg_id: r.msg_id, payload: texts[i]!.payload })),
    );
    expect(handed.map((e) => e.prev_seq)).toEqual([null, h[0]!.seq, h[1]!.seq]);
    // Each answer's text is its event's breadcrumb, byte for byte.
    [created, patched].forEach((r, i) => expect(handed[i]!.payload.endsWith(`,"breadcrumb":${(r.response.body as JsonText).text}}`)).toBe(true));
    expect(o.map((r) => r.subject)).toEqual(
      (["created", "updated", "deleted"] as const).map((t) => subjectFor(owner, t, "test.thing.v1")),
    );
    expect(o.map((r) => r.msg_id)).toEqual([msgIdFor(id, 1, "created"), msgIdFor(id, 2, "updated"), msgIdFor(id, 2, "deleted")]);
    // The statement builds the event in SQL; it must be the contract's one event body, field for field.
    const bodies = [b, p, p] as Breadcrumb[];
    // The deletion's time is not in any response: the check there is every other field.
    const ats = [bodies[0]!.created_at, bodies[1]!.updated_at, o[2]!.payload.at as string];
    o.forEach((row, i) => {
      const at = ats[i]!;
      expect(row.payload).toEqual(breadcrumbEventOf(Number(row.seq), h[i]!.event as EventTypeShort, bodies[i]!, at));
    });
  });

  it("checks a PATCH's context against the row's schema without reading it first: 412 before 422", async () => {
    const chat = await create({ schema_name: "chat.message.v1", title: "c", context: { role: "user", content: "hi", session_id: "s" } });
    const id = bodyOf(chat).id as string;
    const patch = (expectedVersion: number, context: Record<string, unknown>) =>
      patchBreadcrumb(deps, { owner, actor: "admin", id, expectedVersion, body: { context }, validate: breadcrumbContentCheck });
    await expect(patch(1, { role: "nobody" })).rejects.toMatchObject({ status: 422, code: "schema_validation_failed" });
    await expect(patch(7, { role: "nobody" })).rejects.toMatchObject({ status: 412, details: { current_version: 1 } });
    // Refused by every schema (known or not): the guard admits none, the 422 still comes from the check.
    await expect(patch(1, JSON.parse('{"__proto__": 1}') as Record<string, unknown>)).rejects.toMatchObject({ status: 422 });
    expect((await history(id)).length).toBe(1);
    const ok = await patch(1, { role: "user", content: "again", session_id: "s" });
    expect(ok.response.etag).toBe('"2"');
    await expect(
      patchBreadcrumb(deps, { owner, actor: "admin", id: randomUUID(), expectedVersion: 1, body: { title: "x" } }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("replays one answer to concurrent requests with the same Idempotency-Key, and 409s a taken key", async () => {
    const key = `k-${randomUUID()}`;
    const body = { schema_name: "test.thing.v1", title: "idem", context: {}, key };
    const idem = { key: `idem-${randomUUID()}`, fingerprint: "f1" };
    const results = await Promise.all(Array.from({ length: 6 }, () => create(body, idem)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    // The first answer's text and the stored one replayed are the same breadcrumb, same status and ETag.
    for (const r of results) {
      expect(bodyOf(r)).toEqual(bodyOf(results[0]!));
      expect({ status: r.response.status, etag: r.response.etag }).toEqual({ status: 201, etag: '"1"' });
    }
    const id = bodyOf(results[0]!).id as string;
    expect((await history(id)).length).toBe(1);
    await expect(create(body, { key: idem.key, fingerprint: "other" })).rejects.toMatchObject({ status: 422 });
    await expect(create(body)).rejects.toMatchObject({ status: 409, details: { id, version: 1 } });
  });

  it("leaves nothing half-written when the history row cannot be written", async () => {
    const made = await create({ schema_name: "test.thing.v1", title: "x", context: {} });
    const id = bodyOf(made).id as string;
    const [first] = await history(id);
    // The sequence wound back: the next seq collides with the existing history row.
    await database.db.execute(sql`select setval('history_seq', ${Number(first!.seq)}, false)`);
    try {
      await expect(
        patchBreadcrumb(deps, { owner, actor: "admin", id, expectedVersion: 1, body: { title: "y" } }),
      ).rejects.toThrow();
    } finally {
      await database.db.execute(sql`select setval('history_seq', (select max(seq) from breadcrumb_history))`);
    }
    expect((await history(id)).length).toBe(1);
    expect((await getBreadcrumb(database.db, owner, id)).version).toBe(1);
  });

  it("stores the JSON a write fills with lz4 compression when the server has lz4", async () => {
    const lz4 = await serverHasLz4(database.db);
    const columns = await columnCompression(database.db, [
      ["breadcrumbs", "context"],
      ["breadcrumbs", "llm_hints"],
      ["breadcrumb_history", "breadcrumb"],
      ["breadcrumb_history", "event_json"],
      ["idempotency_keys", "response"],
    ]);
    expect(columns).toHaveLength(5);
    // 'l' is lz4; '' is the server's default (pglz), what a server without lz4 keeps.
    expect(new Set(columns.map((c) => c.method))).toEqual(new Set([lz4 ? "l" : ""]));
    // A page-sized context written now is stored compressed with it (in history, inside the event's text).
    if (lz4) {
      const created = await create({ schema_name: "test.lz4.v1", title: "big", context: { text: "lorem ipsum ".repeat(400) } });
      const [stored] = await rows<{ method: string | null }>(
        sql`select pg_column_compression(event_json) as method from breadcrumb_history where breadcrumb_id = ${bodyOf(created).id as string}::uuid`,
      );
      expect(stored?.method).toBe("lz4");
    }
  });
});
