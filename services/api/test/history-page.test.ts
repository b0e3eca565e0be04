import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breadcrumbEventOf, type Breadcrumb } from "@crumbs/schemas";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { listEvents } from "../src/store/events.ts";
import { listHistory } from "../src/store/history.ts";

// A history page is one statement that sizes the rows, cuts at the byte bound and builds each
// event's JSON (store/paging/history-page.ts). What a reader checks: the JSON is the contract's
// event, and pages of small and large rows together stay within the bound and miss nothing.

describe("history pages", () => {
  let pg: TestDatabase;
  let database: Database;
  let sql: postgres.Sql;
  let seq = 0;

  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_history_page");
    database = await openDatabase({ databaseUrl: pg.url });
    await migrate(database);
    sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await database?.close();
    await pg?.drop();
  });

  const breadcrumb = (owner: string, title: string, content: string): Breadcrumb => ({
    id: crypto.randomUUID(),
    owner,
    schema_name: "chat.message.v1",
    title,
    tags: ["user:message", "session:s1"],
    context: { role: "user", content, n: [1, 2.5, { deep: null }] },
    version: 1,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
    created_by: "k1",
    updated_by: "k1",
  });

  /**
   * Writes a created event's history row at `at`: as a release before migration 0012 did (the
   * breadcrumb as jsonb, no event text, which a page builds on the fly), or with `kept` as the API's
   * write statement does since 0014 (the breadcrumb only inside the event's kept text).
   */
  async function append(b: Breadcrumb, at = "2026-01-02T03:04:05.678Z", layout: "older" | "kept" = "older"): Promise<number> {
    seq++;
    if (layout === "older") {
      await sql`INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at)
                VALUES (${seq}, ${b.id}, ${b.owner}, ${b.version}, 'created', ${b.schema_name}, ${b.tags}, ${sql.json(b as never)}, ${at})`;
    } else {
      await sql`INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, at, event_json)
                SELECT ${seq}, ${b.id}, ${b.owner}, ${b.version}, 'created', ${b.schema_name}, ${b.tags}, ${at},
                       crumbs_event_json(${seq}, 'created', ${b.id}, ${b.owner}, ${b.schema_name}, ${b.version}, ${at}, NULL, ${sql.json(b as never)})`;
    }
    return seq;
  }

  it("gives each event as the contract's event body, field for field and in its order", async () => {
    const b = breadcrumb("json-owner", 'a "quoted" title \u2028 with é and\na newline \\ 𝄞', "hi");
    const at = await append(b);
    const page = await listEvents(database.db, "json-owner", { limit: 10 });
    expect(page.items).toHaveLength(1);
    const got = JSON.parse(page.items[0]!.json) as Record<string, unknown>;
    const want = breadcrumbEventOf(at, "created", b, "2026-01-02T03:04:05.678Z");
    expect(got).toEqual(want);
    expect(Object.keys(got)).toEqual(Object.keys(want));
  });

  it("keeps pages of small and large rows within the byte bound, whole and in seq order", async () => {
    const owner = "mixed-owner";
    const seqs: number[] = [];
    for (let i = 0; i < 30; i++) {
      // Every third row is 200 KB that does not compress: stored out of line, sized by its text.
      const content = i % 3 === 2 ? randomBytes(100_000).toString("hex") : `small ${i}`;
      seqs.push(await append(breadcrumb(owner, `t${i}`, content)));
    }
    const maxBytes = 500_000;
    const pages: number[][] = [];
    let after: number | undefined;
    for (;;) {
      const page = await listEvents(database.db, owner, { after, limit: 1_000, maxBytes });
      const bytes = page.items.reduce((n, e) => n + Buffer.byteLength(e.json), 0);
      // The bound counts the breadcrumbs' JSON; each event adds its head fields (under 400 bytes here).
      if (page.items.length > 1) expect(bytes).toBeLessThanOrEqual(maxBytes + 400 * page.items.length);
      pages.push(page.items.map((e) => e.seq));
      if (!page.has_more) break;
      after = page.next_after!;
    }
    expect(pages.flat()).toEqual(seqs);
    // Two large rows and their small neighbours fit a page: a page is not one row per statement.
    expect(Math.max(...pages.map((p) => p.length))).toBeGreaterThan(2);
    expect(pages.length).toBeLessThan(10);
  });

  it("pages one breadcrumb's history by the same rule, from rows of either layout", async () => {
    const b = breadcrumb("history-owner", "v", "x");
    const first = await append(b);
    const v2 = { ...b, version: 2, title: "v2" };
    const second = await append(v2, undefined, "kept");
    const one = await listHistory(database.db, "history-owner", b.id, { limit: 1 });
    expect(one.items.map((h) => [h.seq, h.event, h.title])).toEqual([[first, "created", "v"]]);
    const rest = await listHistory(database.db, "history-owner", b.id, { limit: 10, cursor: one.next_cursor! });
    expect(rest.items.map((h) => [h.seq, h.version, h.title])).toEqual([[second, 2, "v2"]]);
    expect(rest.next_cursor).toBeNull();
    // Each version is the breadcrumb as written, field for field and in the stored order, whichever column held it.
    const all = await listHistory(database.db, "history-owner", b.id, { limit: 10 });
    const [stored] = await sql<{ j: string }[]>`select ${sql.json(v2 as never)}::jsonb::text as j`;
    expect(Object.keys(all.items[1]!)).toEqual([...Object.keys(JSON.parse(stored!.j) as object), "seq", "event"]);
    expect(all.items.map(({ seq: _s, event: _e, ...rest }) => rest)).toEqual([b, v2]);
  });
  it("keeps every history row's breadcrumb: a row with neither the breadcrumb nor its event's text is refused", async () => {
    const b = breadcrumb("history-owner", "v", "x");
    await expect(
      sql`INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, at)
          VALUES (${++seq}, ${b.id}, ${b.owner}, 1, 'created', ${b.schema_name}, ${b.tags}, now())`,
    ).rejects.toMatchObject({ code: "23514" });
  });
});
