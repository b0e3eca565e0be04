import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSelector, type ContextMatch, type Selector } from "@crumbs/schemas";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { breadcrumbs } from "../src/db/schema.ts";
import { listBreadcrumbs } from "../src/store/list.ts";
import { needsPostFilter } from "../src/store/selector-sql.ts";

// The selectors Postgres answers (store/selector-pushdown.ts) must answer exactly what the compiled
// selector answers in JS: the pushed conditions are not tested again. Random contexts over a small
// vocabulary (so that conditions hit), random conditions on paths that exist, do not, or cross an
// array, both sides over the same rows in real Postgres.

const OWNER = "pushdown";
const KEYS = ["url", "lang", "n", "list", "meta", "length", "0"];
const scalar = fc.oneof(
  fc.constantFrom("https://a.example/x", "en", "de", "", 'say "hi"', "ünï", "1", "true", "null"),
  fc.constantFrom(0, 1, -1, 1.5, 40, 1e21, 0.1),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie("v"), { maxKeys: 3 }),
  ),
})).v;
const context = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 });
const path = fc.constantFrom(
  "$",
  "$.url",
  "$.lang",
  "$.n",
  "$.meta.url",
  "$.meta.n",
  "$.list[0]",
  "$.list[1].lang",
  "$.list.length",
  "$.list.0",
  "$.0",
  "$.length",
  "$['meta']['lang']",
  "$.missing",
);
const condition: fc.Arbitrary<ContextMatch> = fc.oneof(
  fc.record({
    path,
    op: fc.constant("eq" as const),
    value: fc.oneof(scalar, fc.constant(["en"]), fc.constant({ url: "en" })),
  }),
  fc.record({
    path,
    op: fc.constant("in" as const),
    value: fc.array(scalar, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ path, op: fc.constant("exists" as const), value: fc.boolean() }),
  fc.record({ path, op: fc.constant("ne" as const), value: scalar }),
);

describe("context_match in SQL answers what the compiled selector answers", () => {
  let pg: TestDatabase;
  let database: Database;
  const rows: { id: string; context: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    pg = await createTestDatabase("crumbs_pushdown");
    database = await openDatabase({ databaseUrl: pg.url });
    await migrate(database);
    const contexts = fc.sample(context, { numRuns: 300, seed: 39 });
    const at = new Date("2026-01-01T00:00:00Z");
    for (const [i, c] of contexts.entries())
      rows.push({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        context: JSON.parse(JSON.stringify(c)) as Record<string, unknown>,
      });
    await database.db.insert(breadcrumbs).values(
      rows.map((r, i) => ({
        id: r.id,
        owner: OWNER,
        schema_name: "test.pushdown.v1",
        title: `row ${i}`,
        context: r.context,
        version: 1,
        created_at: at,
        updated_at: new Date(at.getTime() + i),
        created_by: "t",
        updated_by: "t",
      })),
    );
  });
  afterAll(async () => {
    await database?.close();
    await pg?.drop();
  });

  const viaApi = async (spec: Selector) => {
    const compiled = compileSelector(spec);
    const page = await listBreadcrumbs(database.db, OWNER, {
      selector: { spec, matches: (b, budget) => compiled.matches(b, budget) },
      limit: 500,
    });
    return page.items.map((b) => b.id).sort();
  };
  const inJs = (spec: Selector) => {
    const compiled = compileSelector(spec);
    return rows
      .filter((r) => compiled.matches({ schema_name: "test.pushdown.v1", tags: [], context: r.context }))
      .map((r) => r.id)
      .sort();
  };

  it("gives the same rows for equality and `in` conditions, pushed or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(condition, { minLength: 1, maxLength: 3 }), async (context_match) => {
        const spec: Selector = { context_match };
        expect(await viaApi(spec)).toEqual(inJs(spec));
      }),
      { numRuns: 150, seed: 3939 },
    );
  });

  it("answers a pushed equality from SQL alone, and one it cannot say with JS", async () => {
    const url: Selector = { context_match: [{ path: "$.url", op: "eq", value: "https://a.example/x" }] };
    expect(needsPostFilter(url, breadcrumbs)).toBe(false);
    const hits = await viaApi(url);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits).toEqual(inJs(url));
    const contains: Selector = { context_match: [{ path: "$.url", op: "contains", value: "example" }] };
    expect(needsPostFilter(contains, breadcrumbs)).toBe(true);
    expect(await viaApi(contains)).toEqual(inJs(contains));
  });
});
