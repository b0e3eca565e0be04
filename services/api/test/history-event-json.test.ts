import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breadcrumbEventOf, type Breadcrumb } from "@crumbs/schemas";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import { rowsOf, type Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { createBreadcrumb } from "../src/store/create.ts";
import { deleteBreadcrumb } from "../src/store/delete.ts";
import { eventPageJson, listEvents } from "../src/store/events.ts";
import { patchBreadcrumb } from "../src/store/patch.ts";
import type { StoreDeps } from "../src/store/store-deps.ts";

// Each history row keeps its event's JSON text as the write statement built it, and a page of
// /v1/events sends that text's bytes as they are (store/paging/history-page.ts, db/raw-rows.ts).

describe("the event JSON kept with each history row", () => {
  let pg: TestDatabase;
  let database: Database;
  let deps: StoreDeps;
  const owner = "kept-owner";

  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_event_json");
    database = await openDatabase({ databaseUrl: pg.url });
    await migrate(database);
    deps = { database, now: () => new Date(), newId: randomUUID, onCommitted: () => {} };
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  interface Kept {
    seq: string;
    event: string;
    breadcrumb: Breadcrumb;
    at: string;
    event_json: string | null;
    rebuilt: string;
    /** The `breadcrumb` column: NULL since the event's text keeps the breadcrumb (migration 0014). */
    stored: unknown;
  }
  const kept = async () =>
    rowsOf<Kept>(
      await database.db.execute(sql`
        select seq::text as seq, event, b as breadcrumb, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, event_json,
               crumbs_event_json(seq, event, breadcrumb_id, owner, schema_name, version, at, changed, b) as rebuilt, breadcrumb as stored
        from breadcrumb_history, lateral (select event_json::jsonb -> 'breadcrumb' as b) k
        where owner = ${owner} order by seq`),
    );

  it("is the contract's event, written by every write, and what a page sends byte for byte", async () => {
    const created = await createBreadcrumb(deps, {
      owner,
      actor: "admin",
      body: { schema_name: "test.thing.v1", title: 'a "title" é 𝄞', tags: ["a"], context: { n: 1, s: "x\ny" }, key: "k1", ttl_seconds: 3600 } as never,
    });
    const id = JSON.parse((created.response.body as { text: string }).text).id as string;
    await patchBreadcrumb(deps, { owner, actor: "admin", id, expectedVersion: 1, body: { title: "t2", llm_hints: { mode: "merge" } } });
    await deleteBreadcrumb(deps, { owner, id, expectedVersion: 2 });

    const rows = await kept();
    expect(rows.map((r) => r.event)).toEqual(["created", "updated", "deleted"]);
    for (const r of rows) {
      expect(r.event_json).not.toBeNull();
      expect(r.stored).toBeNull();
      const want = breadcrumbEventOf(Number(r.seq), r.event as "created", r.breadcrumb, r.at);
      expect(JSON.parse(r.event_json!)).toEqual(want);
      expect(Object.keys(JSON.parse(r.event_json!))).toEqual(Object.keys(want));
      // One definition (crumbs_event_text): the event a page builds for an older row, from its jsonb
      // breadcrumb, is the one kept at write time (the jsonb's text differs in spacing and key order only).
      expect(JSON.parse(r.rebuilt)).toEqual(JSON.parse(r.event_json!));
    }
    const page = await listEvents(database.db, owner, { limit: 10 });
    expect(page.items.map((e) => e.json)).toEqual(rows.map((r) => r.event_json));
    const body = JSON.parse(eventPageJson(page).toString()) as { items: unknown[]; has_more: boolean };
    expect(body.items).toEqual(rows.map((r) => JSON.parse(r.event_json!)));
    expect(body.has_more).toBe(false);
  });

  it("sends the kept text as it is, without building it again from the row", async () => {
    const [first] = await kept();
    // The same event spelled differently (spaces after the separators): only a page that passes
    // the stored text through sends this spelling.
    const respelled = JSON.stringify(JSON.parse(first!.event_json!)).replaceAll('","', '", "');
    await database.db.execute(sql`update breadcrumb_history set event_json = ${respelled} where seq = ${first!.seq}::bigint`);
    const page = await listEvents(database.db, owner, { limit: 1 });
    expect(page.items[0]!.json).toBe(respelled);
    expect(eventPageJson(page).toString()).toContain(respelled);
  });
});
