import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, waitFor, type TestDatabase } from "@crumbs/testkit";
import { breadcrumbEventOf, msgIdFor, subjectFor, type Breadcrumb } from "@crumbs/schemas";
import { openDatabase } from "../src/db/open.ts";
import { migrate } from "../src/db/migrate.ts";
import { rowsOf, type Database } from "../src/db/database.ts";
import { breadcrumbContentCheck } from "../src/http/validate-write.ts";
import { patchCombinerOf } from "../src/store/combined-write-statement.ts";
import { createBreadcrumb } from "../src/store/create.ts";
import { patchBreadcrumb } from "../src/store/patch.ts";
import { getBreadcrumb } from "../src/store/read.ts";
import type { CommittedEvent } from "../src/store/committed-event.ts";
import type { StoreDeps } from "../src/store/store-deps.ts";
import type { WriteResult } from "../src/store/write.ts";
import { JsonText } from "../src/store/write-statement.ts";

const bodyOf = (r: WriteResult) => JSON.parse((r.response.body as JsonText).text) as Breadcrumb;

// Real Postgres. The writes sent in one turn of the event loop go as one statement; with a pool of ONE
// connection, a write sent while that statement runs waits for it. That makes the batches certain.
describe("combined PATCHes", () => {
  let pg: TestDatabase;
  let database: Database;
  let deps: StoreDeps;
  const handed: CommittedEvent[] = [];
  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_combine");
    database = await openDatabase({ databaseUrl: pg.url, maxConnections: 1 });
    await migrate(database);
    deps = { database, now: () => new Date(), newId: randomUUID, onCommitted: (_o, e) => void (e && handed.push(e)) };
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));
  const stats = () => ({ ...patchCombinerOf(database.db)!.stats });
  /** One page context per owner, each owner new. */
  const seed = async (n: number, schema = "test.thing.v1", context: Record<string, unknown> = { n: 0 }) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const owner = `o${randomUUID().slice(0, 8)}${i}`;
        const made = await createBreadcrumb(deps, { owner, actor: "admin", body: { schema_name: schema, title: "t", context } as never });
        return { owner, id: bodyOf(made).id };
      }),
    );
  const patch = (t: { owner: string; id: string }, expectedVersion: number, context: Record<string, unknown>) =>
    patchBreadcrumb(deps, { owner: t.owner, actor: "admin", id: t.id, expectedVersion, body: { context }, validate: breadcrumbContentCheck });

  it("combines concurrent PATCHes of distinct owners, each with its own answer, history, outbox row and seqs", async () => {
    const targets = await seed(9);
    const before = stats();
    handed.length = 0;
    const results = await Promise.all(targets.map((t, i) => patch(t, 1, { n: i + 1, page: { url: `https://x/${i}` } })));
    const after = stats();
    // Sent in one turn, all 9 went as one statement.
    expect(after.combined - before.combined).toBe(1);
    expect(after.statements - before.statements).toBe(1);
    expect(after.largest).toBeGreaterThanOrEqual(9);
    for (const [i, r] of results.entries()) {
      const t = targets[i]!;
      const b = bodyOf(r);
      const read = await getBreadcrumb(database.db, t.owner, t.id);
      // The answer is the row as a read shows it, in the contract's key order.
      expect(b).toEqual(read);
      expect(Object.keys(b)).toEqual(Object.keys(read));
      expect(b.context).toEqual({ n: i + 1, page: { url: `https://x/${i}` } });
      expect(r.response.etag).toBe('"2"');
      const h = await rows<{ seq: string; event: string; changed: unknown; payload: Record<string, unknown> }>(
        sql`select seq::text as seq, event, changed, event_json::jsonb as payload from breadcrumb_history where breadcrumb_id = ${t.id}::uuid order by breadcrumb_history.seq`,
      );
      expect(h.map((x) => x.event)).toEqual(["created", "updated"]);
      expect(h[1]!.changed).toBeNull();
      expect(h[1]!.payload).toEqual(breadcrumbEventOf(Number(h[1]!.seq), "updated", b, b.updated_at));
      // The event handed to the relay is its outbox row, and names the owner's previous seq.
      const e = handed.find((x) => x.seq === h[1]!.seq)!;
      expect(e).toMatchObject({ subject: subjectFor(t.owner, "updated", "test.thing.v1"), msg_id: msgIdFor(t.id, 2, "updated"), prev_seq: h[0]!.seq });
      expect(JSON.parse(e.payload)).toEqual(h[1]!.payload);
      // The answer's text is the event's breadcrumb, byte for byte.
      expect(e.payload.endsWith(`,"breadcrumb":${(r.response.body as JsonText).text}}`)).toBe(true);
      const [o] = await rows<{ subject: string; msg_id: string }>(sql`select subject, msg_id from outbox where seq = ${h[1]!.seq}::bigint`);
      expect(o).toEqual({ subject: e.subject, msg_id: e.msg_id });
      const [head] = await rows<{ last_seq: string; prev_seq: string }>(
        sql`select last_seq::text as last_seq, prev_seq::text as prev_seq from owner_heads where owner = ${t.owner}`,
      );
      expect(head).toEqual({ last_seq: h[1]!.seq, prev_seq: h[0]!.seq });
    }
  });

  it("answers a stale If-Match with 412, a missing row with 404 and a refused context with 422, alone, while the others commit", async () => {
    const targets = await seed(6);
    const [chat] = await seed(1, "chat.message.v1", { role: "user", content: "hi", session_id: "s" });
    const before = stats();
    const settled = await Promise.allSettled([
      patch(targets[0]!, 1, { n: 1 }),
      patch(targets[1]!, 1, { n: 1 }),
      patch(targets[2]!, 5, { n: 1 }),
      patch({ owner: targets[3]!.owner, id: randomUUID() }, 1, { n: 1 }),
      patch(chat!, 1, { role: "nobody" }),
      patch(targets[4]!, 1, { n: 1 }),
      patch(targets[5]!, 1, { n: 1 }),
    ]);
    expect(stats().combined - before.combined).toBe(1);
    expect(stats().fallbacks - before.fallbacks).toBe(0);
    const outcome = settled.map((s) => (s.status === "fulfilled" ? s.value.response.status : (s.reason as { status: number }).status));
    expect(outcome).toEqual([200, 200, 412, 404, 422, 200, 200]);
    expect(settled[2]).toMatchObject({ reason: { details: { current_version: 1 } } });
    expect((await getBreadcrumb(database.db, targets[2]!.owner, targets[2]!.id)).version).toBe(1);
    expect((await getBreadcrumb(database.db, chat!.owner, chat!.id)).version).toBe(1);
    for (const i of [0, 1, 4, 5]) expect((await getBreadcrumb(database.db, targets[i]!.owner, targets[i]!.id)).version).toBe(2);
  });

  it("keeps an owner's second write out of the statement that holds its first, in the order they came", async () => {
    const [a, b] = await seed(2);
    const before = stats();
    const settled = await Promise.allSettled([patch(b!, 1, { n: 1 }), patch(a!, 1, { n: 1 }), patch(a!, 2, { n: 2 }), patch(a!, 2, { n: 3 })]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value.response.status : (s.reason as { status: number }).status))).toEqual([200, 200, 200, 412]);
    expect((await getBreadcrumb(database.db, a!.owner, a!.id)).context).toEqual({ n: 2 });
    // b with a's first, then a's second and third alone, one after the other.
    expect(stats().statements - before.statements).toBe(3);
  });

  it("runs each write of a statement that failed as a whole alone: a deadlock with another replica's statement", async () => {
    const targets = await seed(4);
    const [r1, r2] = [targets[1]!, targets[2]!];
    // Another replica, as a transaction: it holds r2's row and will ask for r1's while the combined
    // statement holds r1's and waits for r2's. Its deadlock_timeout is the longer, so the combined
    // statement's backend is the one that finds the deadlock and fails.
    const other = postgres(pg.url, { max: 1, onnotice: () => {} });
    const watch = postgres(pg.url, { max: 1, onnotice: () => {} });
    try {
      const before = stats();
      let done!: Promise<unknown>;
      const replica = other.begin(async (tx) => {
        await tx`set local deadlock_timeout = '30s'`;
        await tx`update breadcrumbs set title = title where id = ${r2.id}::uuid`;
        done = Promise.all(targets.map((t) => patch(t, 1, { n: 7 })));
        await waitFor(
          async () => (await watch`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%unnest%'`).length > 0,
          { message: "the combined statement waiting for r2's row" },
        );
        await tx`update breadcrumbs set title = title where id = ${r1.id}::uuid`;
      });
      await replica;
      const results = (await done) as WriteResult[];
      expect(results.map((r) => r.response.status)).toEqual([200, 200, 200, 200]);
      expect(stats().fallbacks - before.fallbacks).toBe(4);
      for (const t of targets) expect((await getBreadcrumb(database.db, t.owner, t.id)).version).toBe(2);
    } finally {
      await other.end();
      await watch.end();
    }
  });
});
