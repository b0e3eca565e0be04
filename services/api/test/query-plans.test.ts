import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSelector, type Selector } from "@crumbs/schemas";
import { createTestDatabase, fillSyntheticBreadcrumbs, SYNTHETIC, type TestDatabase } from "@crumbs/testkit";
import type { Database, Db } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { schema } from "../src/db/schema.ts";
import { countBySchema } from "../src/store/schema-counts.ts";
import { listBreadcrumbs } from "../src/store/list.ts";
import { listEvents } from "../src/store/events.ts";
import { listHistory } from "../src/store/history.ts";
import { pruneSchemaHistory } from "../src/retention/prune.ts";

// The guard of docs/scaling.md, "Reads at scale": every list and search statement, as the store
// sends it, is EXPLAINed on a table large enough for the planner to prefer an index (30,000 rows
// over 10 owners, analyzed), and fails on a scan of all of breadcrumbs or breadcrumb_history, or on
// a Sort where the index must give the order. One slipped ORDER BY (a NULLS FIRST against the
// index's NULLS LAST) once made every list page read all of the owner's rows and sort them.

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

const ROWS = 30_000;
const OWNERS = 10;
const OWNER = `${SYNTHETIC.ownerPrefix}3`;

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe("every list and search statement is served by an index", () => {
  let pg: TestDatabase;
  let database: Database;
  let client: postgres.Sql;
  let captured: { query: string; params: unknown[] }[] = [];
  let db: Db;

  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_plans");
    database = await openDatabase({ databaseUrl: pg.url });
    await migrate(database);
    client = postgres(pg.url, { max: 1, onnotice: () => {} });
    await fillSyntheticBreadcrumbs(client, { rows: ROWS, owners: OWNERS });
    // The store's own statements, as it sends them: drizzle's logger hands each one over.
    db = drizzle({
      client,
      schema,
      logger: { logQuery: (query, params) => captured.push({ query, params }) },
    }) as unknown as Db;
  }, 180_000);
  afterAll(async () => {
    await client?.end();
    await database?.close();
    await pg?.drop();
  });

  /** The plans of the statements `run` sends. */
  async function plansOf(run: () => Promise<unknown>): Promise<{ query: string; plan: PlanNode[] }[]> {
    captured = [];
    await run();
    const out = [];
    for (const { query, params } of captured) {
      const [row] = await client.unsafe<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
        `EXPLAIN (FORMAT JSON) ${query}`,
        params as never[],
      );
      out.push({ query, plan: nodes(row!["QUERY PLAN"][0].Plan) });
    }
    expect(out.length).toBeGreaterThan(0);
    return out;
  }

  /** No full scan of the big tables; with `ordered`, no Sort either: the index walk gives the order. */
  async function expectIndexed(
    run: () => Promise<unknown>,
    opts: { ordered: boolean; index?: string | string[] },
  ) {
    for (const { query, plan } of await plansOf(run)) {
      const types = plan.map(
        (n) =>
          `${n["Node Type"]}${n["Relation Name"] ? ` on ${n["Relation Name"]}` : ""}${n["Index Name"] ? ` using ${n["Index Name"]}` : ""}`,
      );
      const why = `${query}\n${types.join("\n")}`;
      expect(
        plan.filter((n) => n["Node Type"] === "Seq Scan" && /^breadcrumb/.test(n["Relation Name"] ?? "")),
        why,
      ).toEqual([]);
      if (opts.ordered)
        expect(
          plan.filter((n) => /Sort/.test(n["Node Type"])),
          why,
        ).toEqual([]);
      // A list page is read in two statements: the keys (and sizes) walked in order until the page's
      // byte budget is full, then the rows of exactly those keys. The second one looks rows up by
      // key, so any index serves it; the order and the filter are the first one's job. (A history
      // page is one statement that walks the index, sizes and cuts: history-page.ts.)
      const fetchByKeys = /"(id|seq)" in \(/.test(query);
      if (fetchByKeys)
        expect(
          plan.some((n) => /Index/.test(n["Node Type"])),
          why,
        ).toBe(true);
      const wanted = typeof opts.index === "string" ? [opts.index] : opts.index;
      if (wanted && !fetchByKeys)
        expect(
          plan.some((n) => wanted.includes(n["Index Name"] ?? "")),
          why,
        ).toBe(true);
    }
  }

  const selector = (spec: Selector) => {
    const compiled = compileSelector(spec);
    return { spec, matches: compiled.matches.bind(compiled) };
  };

  it("lists newest first, and the next page, by walking the owner's index", async () => {
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { limit: 50 }), {
      ordered: true,
      index: "breadcrumbs_owner_updated_idx",
    });
    const first = await listBreadcrumbs(db, OWNER, { limit: 50 });
    expect(first.next_cursor).not.toBeNull();
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { limit: 50, cursor: first.next_cursor! }), {
      ordered: true,
      index: "breadcrumbs_owner_updated_idx",
    });
  });

  it("lists one schema by the owner-and-schema index", async () => {
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { schema_name: SYNTHETIC.pageSchema, limit: 50 }), {
      ordered: true,
      index: "breadcrumbs_owner_schema_updated_idx",
    });
  });

  it("filters by tag without reading every row", async () => {
    // A tag on half of the rows: the owner's newest rows, walked until the page is full. Reading all
    // rows with the tag through the tags index and sorting them is what a planner blind to the
    // tag's value chose (the text[] parameter was once a subquery it could not see into).
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { tags: [SYNTHETIC.commonTag], limit: 50 }), {
      ordered: true,
      index: "breadcrumbs_owner_updated_idx",
    });
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { tags: ["session:s13"], limit: 50 }), {
      ordered: false,
    });
  });

  it("finds a word in titles through the trigram index", async () => {
    await expectIndexed(
      () => listBreadcrumbs(db, OWNER, { title: SYNTHETIC.rareWord.toUpperCase(), limit: 50 }),
      {
        ordered: false,
        index: "breadcrumbs_title_trgm",
      },
    );
  });

  it("finds a page context by url through the GIN index on context", async () => {
    const url = SYNTHETIC.urlOf(3 * OWNERS + 3); // owner3's 4th row, a browser.action.v1
    await expectIndexed(
      () =>
        listBreadcrumbs(db, OWNER, {
          selector: selector({ context_match: [{ path: "$.url", op: "eq", value: url }] }),
          limit: 50,
        }),
      {
        ordered: false,
        index: "breadcrumbs_context_gin",
      },
    );
    const other = await listBreadcrumbs(db, OWNER, {
      selector: selector({ context_match: [{ path: "$.url", op: "eq", value: url }] }),
      limit: 50,
    });
    expect(other.items.map((b) => [b.schema_name, b.context.url])).toEqual([["browser.action.v1", url]]);
    const pageUrl = SYNTHETIC.urlOf(3); // owner3's first row: a page context
    const spec = {
      schema_name: SYNTHETIC.pageSchema,
      context_match: [{ path: "$.url", op: "eq" as const, value: pageUrl }],
    };
    await expectIndexed(() => listBreadcrumbs(db, OWNER, { selector: selector(spec), limit: 50 }), {
      ordered: false,
      index: "breadcrumbs_context_gin",
    });
    const page = await listBreadcrumbs(db, OWNER, { selector: selector(spec), limit: 50 });
    expect(page.items.map((b) => b.context.url)).toEqual([pageUrl]);
  });

  it("reads one breadcrumb's history, the owner's events and an SSE backfill page in seq order from the index", async () => {
    const [one] = (await listBreadcrumbs(db, OWNER, { limit: 1 })).items;
    await expectIndexed(() => listHistory(db, OWNER, one!.id, { limit: 100 }), {
      ordered: true,
      index: "history_breadcrumb_idx",
    });
    // The owner's seq index, or the seq primary key filtered by owner where the owner has a large
    // share of all rows (here one in ten): both give seq order without a sort.
    const seqIndexes = ["history_owner_seq_idx", "breadcrumb_history_pkey"];
    await expectIndexed(() => listEvents(db, OWNER, { after: 1_000, limit: 100 }), {
      ordered: true,
      index: seqIndexes,
    });
    await expectIndexed(() => listEvents(db, OWNER, { after: 0, limit: 500 }), {
      ordered: true,
      index: seqIndexes,
    });
    // A page of rows stored inline is ONE statement that sizes, cuts at the byte bound and sends:
    // the size probe and the fetch by keys before it cost two round trips per step.
    expect(await plansOf(() => listEvents(db, OWNER, { after: 0, limit: 500 }))).toHaveLength(1);
    expect(await plansOf(() => listHistory(db, OWNER, one!.id, { limit: 100 }))).toHaveLength(1);
  });

  it("walks one schema's history for retention a window at a time, never the whole schema", async () => {
    const rule = { maxVersions: 10, maxAgeSeconds: 3_600 };
    const first = await pruneSchemaHistory(db, SYNTHETIC.pageSchema, rule, { scan: 200 });
    // One version per synthetic breadcrumb: nothing to prune, and the walk goes on after 200 rows.
    expect(first.deleted).toBe(0);
    expect(first.next).not.toBeNull();
    await expectIndexed(() => pruneSchemaHistory(db, SYNTHETIC.pageSchema, rule, { scan: 200, after: first.next! }), {
      ordered: true,
      index: "history_schema_breadcrumb_idx",
    });
  });

  it("counts per schema from the kept counts, not from the owner's rows", async () => {
    await expectIndexed(() => countBySchema(db, OWNER), { ordered: false });
    const counts = await countBySchema(db, OWNER);
    expect(counts.reduce((n, c) => n + c.count, 0)).toBe(ROWS / OWNERS);
  });

  it("would catch the order the indexes cannot give (the check itself works)", async () => {
    const plan = await plansOf(() =>
      db.execute(
        `SELECT id FROM breadcrumbs WHERE owner = '${OWNER}' ORDER BY updated_at DESC, id DESC LIMIT 50` as never,
      ),
    );
    expect(
      plan[0]!.plan.some((n) => n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort"),
    ).toBe(true);
  });
});
