import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import { rowsOf, type Database } from "../src/db/database.ts";
import { migrationsFolder } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { batchOf, readLocking, type ReadRow } from "../src/outbox/relay-statements.ts";
import { listHistory } from "../src/store/history.ts";
import { columnCompression, serverHasLz4 } from "./compression.ts";

/** The migrations folder as an older release shipped it: its first `count` migrations. */
async function olderRelease(count: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "crumbs-migrations-"));
  await cp(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: unknown[] };
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
  return dir;
}

// A database made by a release whose relay marked published outbox rows (migrations 0000-0004),
// upgraded by the API's own migrator: what the relay still owes must survive the upgrade.
describe("upgrading a database of an older release", () => {
  let pg: TestDatabase;
  let database: Database;
  let older: string;
  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_upgrade");
    database = await openDatabase({ databaseUrl: pg.url });
    older = await olderRelease(5);
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
    if (older) await rm(older, { recursive: true, force: true });
  });

  it("keeps the outbox rows the relay still owes, drops the published ones, compresses new JSON with lz4, and counts the live rows per schema", async () => {
    const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));
    await database.runMigrations(older);
    await database.db.execute(sql`
      insert into breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at)
      values (1, gen_random_uuid(), 'o', 1, 'created', 'note.v1', '{}', '{}', now()),
             (2, gen_random_uuid(), 'o', 1, 'created', 'note.v1', '{}', '{}', now())`);
    await database.db.execute(sql`
      insert into outbox (seq, subject, msg_id, payload, published_at)
      values (1, 'crumbs.o.created.note.v1', 'a:1:created', '{}', now()),
             (2, 'crumbs.o.created.note.v1', 'b:1:created', '{}', null)`);
    // Live rows of the older release: the upgrade counts them per owner and schema (migration 0008).
    await database.db.execute(sql`
      insert into breadcrumbs (id, owner, schema_name, title, context, version, created_at, updated_at, created_by, updated_by)
      select gen_random_uuid(), o, s, 't', '{}', 1, now(), now(), 'a', 'a'
      from (values ('o', 'note.v1'), ('o', 'note.v1'), ('o', 'page.v1'), ('p', 'note.v1')) v(o, s)`);

    await database.runMigrations(migrationsFolder);

    expect(await rows(sql`select owner, schema_name, live::int from schema_counts order by 1, 2`)).toEqual([
      { owner: "o", schema_name: "note.v1", live: 2 },
      { owner: "o", schema_name: "page.v1", live: 1 },
      { owner: "p", schema_name: "note.v1", live: 1 },
    ]);

    expect(await rows<{ seq: string; msg_id: string }>(sql`select seq::text as seq, msg_id from outbox`)).toEqual([
      { seq: "2", msg_id: "b:1:created" },
    ]);
    const columns = await rows<{ name: string }>(sql`
      select attname as name from pg_attribute where attrelid = 'outbox'::regclass and attnum > 0 and not attisdropped`);
    // The event stays in the history row the outbox row names (migration 0013): the relay reads the
    // row that waited through the upgrade with its event, built from a history row older than event_json.
    const client = (database.db as unknown as { $client: { unsafe(text: string, params: unknown[]): Promise<ReadRow[]> } }).$client;
    const read = readLocking(10);
    const [waiting] = batchOf(await client.unsafe(read.text, read.params)).rows;
    expect(waiting?.seq).toBe("2");
    expect(JSON.parse(waiting!.payload)).toMatchObject({ seq: 2, type: "breadcrumb.created", owner: "o", schema_name: "note.v1", version: 1, breadcrumb: {} });
    expect(columns.map((c) => c.name).sort()).toEqual(["created_at", "msg_id", "seq", "subject"]);
    // A history row from before the event's text was kept reads from its `breadcrumb` (0014 leaves it there).
    const [old] = await rows<{ id: string }>(sql`select breadcrumb_id::text as id from breadcrumb_history where seq = 1`);
    expect((await listHistory(database.db, "o", old!.id, { limit: 10 })).items).toEqual([{ seq: 1, event: "created" }]);
    expect(await columnCompression(database.db, [["breadcrumb_history", "breadcrumb"]])).toEqual([
      { col: "breadcrumb_history.breadcrumb", method: (await serverHasLz4(database.db)) ? "l" : "" },
    ]);
  });
});
