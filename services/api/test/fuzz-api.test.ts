import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf } from "../src/db/database.ts";
import { startStack, type TestStack } from "./stack.ts";

// Hostile requests through the whole app (app.request, real Postgres): never a 5xx,
// every refusal is the JSON error shape, nothing is stored when a write is refused,
// Object.prototype is never touched, and each request ends within CASE_MS (a catastrophic
// regex, JSONPath or template would hold it for seconds). CRUMBS_FUZZ_SCALE multiplies the runs.

const SCALE = Number(process.env.CRUMBS_FUZZ_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
/** Per request, wall time: generous for a shared 2-core machine, far below a hang. */
const CASE_MS = 2_000;

/** Stored once, so selectors and views below have something expensive to chew on. */
function hostileContext(): Record<string, unknown> {
  let deep: Record<string, unknown> = { leaf: "a".repeat(2_000) + "b" };
  for (let i = 0; i < 30; i++) deep = { a: deep, b: { x: i, y: [i, i] } };
  return { deep, items: Array.from({ length: 300 }, (_, i) => ({ i, s: "a".repeat(200) + "b" })) };
}
const NESTED_EACH =
  "{{#each context.items}}{{#each ../context.items}}{{#each ../../context.items}}{{i}}{{/each}}{{/each}}{{/each}}";
const hostileSelector = fc.constantFrom(
  { context_match: [{ path: "$.items[*].s", op: "matches", value: "^(a|a|aa|aaa)*$" }] },
  { context_match: [{ path: "$..*..*..*..*..*..*..*..*", op: "exists" }] },
  { context_match: [{ path: "$..s", op: "matches", value: "(x+x+)+y" }] },
);

const nasty = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "\u0000", "a\u0000b", "\ud800", "\udfff", "\u202e", "👩‍👩‍👧‍👦", "\ufeff", "{{", "$..*", "(a+)+$", "^(a|a|aa|aaa)*$", "x".repeat(300)),
);
const schemaName = fc.oneof(
  fc.constantFrom("test.fuzz.v1", "browser.action.v1", "browser.page.context.v1", "agent.def.v1", "chat.message.v1", "schema.def.v1", "Bad Name", "a.v1"),
  nasty,
);
const hints = fc.oneof(
  fc.record(
    {
      mode: fc.oneof(fc.constantFrom("merge", "replace"), nasty),
      transform: fc.dictionary(
        nasty,
        fc.oneof(
          fc.record({ type: fc.constant("template"), template: fc.oneof(nasty, fc.constantFrom("{{constructor.constructor 'x'}}", "{{context.__proto__}}", "{{#each context}}{{@key}}{{/each}}", NESTED_EACH)) }),
          fc.record({ type: fc.constant("extract"), value: fc.oneof(nasty, fc.constantFrom("$..*", "$[?(@.constructor)]", "$.__proto__", "$..*..*..*..*..*..*")) }),
          fc.record({ type: fc.constant("literal"), literal: fc.jsonValue({ maxDepth: 2 }) }),
        ),
        { maxKeys: 3 },
      ),
      exclude: fc.array(nasty, { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const protoJson = fc.constantFrom(
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
);
const createBody = fc.record(
  {
    schema_name: schemaName,
    title: nasty,
    tags: fc.oneof(fc.array(nasty, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    context: fc.oneof(
      { weight: 8, arbitrary: fc.oneof(fc.dictionary(nasty, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 })) },
      { weight: 1, arbitrary: fc.constant(hostileContext()) },
    ),
    llm_hints: hints,
    key: nasty,
    ttl_seconds: fc.oneof(fc.integer(), fc.double(), nasty),
  },
  { requiredKeys: [] },
);
/** What a header can carry at all (fetch refuses control characters before the app sees them). */
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }).map((h) => h.trim());
const deep = (n: number, open: string, close: string) => open.repeat(n) + "1" + close.repeat(n);
/** Bodies as raw text: JSON, broken JSON, deep nesting, prototype keys, a huge one now and then. */
const rawBody = fc.oneof(
  { weight: 6, arbitrary: createBody.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: createBody.map((b) => JSON.stringify(b).slice(0, -3)) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 5_000 }).map((n) => `{"schema_name":"a.v1","title":"t","context":${deep(n, '{"a":', "}")}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 60, max: 3_000 }).map((n) => deep(n, "[", "]")) },
  { weight: 1, arbitrary: protoJson.map((p) => `{"schema_name":"a.v1","title":"t","context":${p},"llm_hints":${p}}`) },
  { weight: 1, arbitrary: fc.constant(`{"schema_name":"a.v1","title":"t","context":{"s":"${"x".repeat(1_100_000)}"}}`) },
);
const selectorParam = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record(
    { context_match: fc.array(fc.record({ path: nasty.map((s) => `$.${s}`), op: fc.oneof(fc.constantFrom("eq", "matches", "in", "gt"), nasty), value: fc.oneof(nasty, fc.jsonValue({ maxDepth: 1 })) }), { maxLength: 2 }), schema_name: schemaName },
    { requiredKeys: [] },
  ).map((v) => JSON.stringify(v)),
  nasty,
  hostileSelector.map((v) => JSON.stringify(v)),
).filter((sel) => sel.trim() !== "");

/** Lone surrogates cannot be URI-encoded; send what a hostile client would: invalid UTF-8 percent-escapes. */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ""))}%ED%A0%80%FF`;
  }
}

describe("API fuzz", () => {
  let s: TestStack;
  let existingId: string;
  let cases = 0;
  beforeAll(async () => {
    s = await startStack({ CRUMBS_SWEEP_MS: "600000" });
    const res = await s.call("/v1/breadcrumbs", { method: "POST", json: { schema_name: "test.fuzz.v1", title: "target", context: { a: 1 } } });
    existingId = ((await res.json()) as { id: string }).id;
    const hostile = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.fuzz.v1", title: "hostile", context: hostileContext(), llm_hints: { transform: { loops: { type: "template", template: NESTED_EACH } } } },
    });
    expect(hostile.status).toBe(201);
  });
  afterAll(async () => {
    console.log(`api fuzz: ${cases} requests, slowest ${slowest.toFixed(0)} ms`);
    await s?.dispose();
  });

  // Not the outbox: the relay empties it as it publishes, and an outbox row cannot exist without
  // the history row it references.
  async function stored(): Promise<string> {
    const [r] = rowsOf<{ v: string }>(
      await s.database.db.execute(sql`select (select count(*) from breadcrumb_history)::text || ':' ||
        (select count(*) from breadcrumbs)::text || ':' ||
        (select count(*) from idempotency_keys)::text as v`),
    );
    return r?.v ?? "";
  }

  let slowest = 0;
  /** The response, and how long the app took to give it. */
  async function timed(request: Promise<Response>): Promise<Response> {
    const started = performance.now();
    const res = await request;
    await res.clone().arrayBuffer();
    const took = performance.now() - started;
    slowest = Math.max(slowest, took);
    expect(took, "one request took too long").toBeLessThan(CASE_MS);
    return res;
  }

  async function check(res: Response, before: string, write: boolean) {
    cases++;
    expect(res.status, await res.clone().text().then((t) => t.slice(0, 300))).toBeLessThan(500);
    if (res.status >= 400) {
      const body = (await res.json()) as { error: unknown; message: unknown };
      expect(typeof body.error).toBe("string");
      expect(typeof body.message).toBe("string");
      if (write) expect(await stored()).toBe(before);
    } else {
      await res.arrayBuffer();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  }

  it("POST with arbitrary and malformed bodies", async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, fc.boolean(), async (body, idem) => {
        const before = await stored();
        const headers: Record<string, string> = idem ? { "idempotency-key": `fuzz-${body.length}` } : {};
        await check(await timed(s.call("/v1/breadcrumbs", { method: "POST", body, headers: { ...headers, "content-type": "application/json" } })), before, true);
      }),
      { numRuns: runs(700) },
    );
  }, 120_000);

  it("PATCH with arbitrary bodies and preconditions", async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, fc.oneof(fc.constantFrom('"1"', "1", "*", '"-1"', '"99999999999999999999"', 'W/"1"'), headerValue), async (body, ifMatch) => {
        const before = await stored();
        const res = await timed(s.call(`/v1/breadcrumbs/${existingId}`, { method: "PATCH", body, headers: { "if-match": ifMatch, "content-type": "application/json" } }));
        await check(res, before, true);
      }),
      { numRuns: runs(300) },
    );
  }, 120_000);

  it("a blank selector parameter means no selector (it once answered 500)", async () => {
    for (const p of ["/v1/events?selector=", "/v1/breadcrumbs?selector=%20"]) {
      const res = await s.call(p);
      expect(res.status).toBe(200);
    }
  });

  it("reads with arbitrary selectors, cursors, ids and views", async () => {
    const path = fc.oneof(
      selectorParam.map((sel) => `/v1/breadcrumbs?selector=${enc(sel)}`),
      selectorParam.map((sel) => `/v1/events?selector=${enc(sel)}`),
      nasty.map((c) => `/v1/breadcrumbs?cursor=${enc(c)}&limit=${enc(c)}`),
      nasty.map((c) => `/v1/events?after=${enc(c)}&since=${enc(c)}`),
      nasty.map((id) => `/v1/breadcrumbs/${enc(id)}?view=llm`),
      fc.constant("/v1/breadcrumbs?view=llm&limit=500"),
      nasty.map((id) => `/v1/breadcrumbs/${enc(id)}/history`),
    );
    await fc.assert(
      fc.asyncProperty(path, async (p) => {
        await check(await timed(s.call(p)), "", false);
      }),
      { numRuns: runs(600) },
    );
  }, 120_000);
});
