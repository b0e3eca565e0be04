import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { BudgetExceededError } from "./budget.ts";
import { CrumbsError } from "./contract/errors.ts";
import { compileExpression, evaluateExpression } from "./lang/expression.ts";
import { HintCompileError } from "./lang/hint-compile-error.ts";
import { evaluateJsonPath, extractJsonPath, JsonPathSyntaxError, parseJsonPath } from "./json-path/json-path.ts";
import { validateLlmHints } from "./llm-view/llm-hints-validate.ts";
import { renderLlmView } from "./llm-view/llm-view.ts";
import { compileSelector } from "./selector/selector-compile.ts";
import { SELECTOR_OPS } from "./selector/selector-schema.ts";
import { compileTemplate } from "./lang/template-engine.ts";

// Hostile input for the pure engines every side shares. Whatever arrives, an engine
// either works or throws its own typed error; it never throws anything else, never
// hangs (each case must finish within CASE_MS, so a catastrophic regex, a runaway JSONPath
// or an explosive template fails the suite), and never writes to Object.prototype.
// CRUMBS_FUZZ_SCALE multiplies the runs.

const SCALE = Number(process.env.CRUMBS_FUZZ_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
let cases = 0;

/**
 * Per case, for every engine: generous, far below a hang. CPU time of this process, not wall
 * time, which on a 2-core machine shared with other jobs mostly measures the neighbours.
 */
const CASE_MS = 250;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let slowest = 0;
let slowestCase = "";
function timed(what: unknown, run: () => void): void {
  const started = cpuMs();
  try {
    run();
  } finally {
    const took = cpuMs() - started;
    if (took > slowest) {
      slowest = took;
      slowestCase = JSON.stringify(what).slice(0, 160);
    }
    expect(took, "one engine case took too long").toBeLessThan(CASE_MS);
  }
}

/** A 30-level object, two keys per level, and 300 long "aaa…b" strings: what hostile views walk. */
function hostileContext(): Record<string, unknown> {
  let deep: Record<string, unknown> = { leaf: "a".repeat(2_000) + "b" };
  for (let i = 0; i < 30; i++) deep = { a: deep, b: { x: i, y: [i, i] } };
  return { deep, items: Array.from({ length: 300 }, (_, i) => ({ i, s: "a".repeat(200) + "b" })) };
}

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
function assertPrototypeClean() {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTO_KEYS);
  expect(Object.getOwnPropertyNames(Array.prototype)).not.toContain("polluted");
}

/** Strings that break naive parsers: lone surrogates, NUL, RTL override, emoji, prototype names. */
export const nastyString = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.string({ unit: "binary", maxLength: 16 }),
  fc.constantFrom(
    "__proto__", "constructor", "prototype", "polluted", "\u0000", "\ud800", "\udfff", "a\ud83d", "\u202e", "\u200f",
    "👩‍👩‍👧‍👦", "\ufeff", "\u2028", "'", '"', "\\", "}}", "{{", "$", "@", "*", "..", "[", "]", "(", ")", "?",
    "(a+)+$", "a".repeat(600), "^(a|a|aa|aaa)*$", "(a|aa)+b$", "(x+x+)+y", "(.*a){12}",
  ),
);

const pathArb = fc.oneof(
  fc.constantFrom(
    "$", "$.a", "$..a", "$.a[*]", "$.a[0]", "$.a[-1]", "$.a[1:3]", "$.a[::-1]", "$['a b']", "$[\"__proto__\"]",
    "$.__proto__.polluted", "$.constructor.prototype", "$..constructor", "$[?(@.x > 1)]", "$[?(@.constructor)]",
    "$[?(this.constructor.constructor('return process')())]", "$..[?(@ == 'x')]", "$[(@.length-1)]", "$.a.b.c.d",
    "$[", "$.", "$..", "$[?(", "$[0:999999999999]", "$.a[*][*][*]",
    "$..*..*..*..*..*..*", "$..*..*..*..*..*..*..*..*..*..*", "$..[?(@ == $)]", "$..*[?(@.a == @.a)]..*", "$.items[*].s",
  ),
  nastyString.map((s) => `$.${s}`),
  nastyString,
);

const templateArb = fc.oneof(
  fc.constantFrom(
    "{{context.title}}", "{{json context}}", "{{#each context}}{{@key}}{{/each}}", "{{constructor.constructor}}",
    "{{context.__proto__}}", "{{lookup this 'constructor'}}", "{{#with context}}{{../title}}{{/with}}", "{{> partial}}",
    "{{{context.html}}}", "{{truncate context.title 3}}", "{{join tags ', '}}", "{{count context}}", "{{default x 'y'}}",
    "{{#if (eq 1 1)}}x{{/if}}", "{{", "}}", "{{!-- --}}", "{{#each}}", "{{@root.constructor}}", "{{context.a.length > 0}}",
    "{{this}}", "{{log 'x'}}", "{{helperMissing}}", "{{context.[__proto__].polluted}}",
    "{{#each context.items}}{{#each ../context.items}}{{#each ../../context.items}}{{i}}{{/each}}{{/each}}{{/each}}",
    "{{#each context.items}}{{#each ../context.items}}{{json ../../context}}{{/each}}{{/each}}",
    "{{#each context.items}}{{truncate ../context 5}}{{count ../context.deep}}{{/each}}",
    "{{#each context.items}}{{#each ../context.items}}{{#each ../../context.items}}{{#each ../../../context.items}}x{{/each}}{{/each}}{{/each}}{{/each}}",
  ),
  fc.array(fc.oneof(nastyString, fc.constantFrom("{{", "}}", "#each ", "/each", "context.", "@", " ", "../")), { maxLength: 8 }).map((p) =>
    p.join(""),
  ),
);

const ruleArb = fc.oneof(
  fc.record({ type: fc.constant("template"), template: templateArb }),
  fc.record({ type: fc.constant("extract"), value: pathArb }),
  fc.record({ type: fc.constant("literal"), literal: fc.oneof(fc.jsonValue({ maxDepth: 3 }), templateArb) }),
  fc.jsonValue({ maxDepth: 2 }),
);

const hintsArb = fc.oneof(
  fc.record(
    {
      mode: fc.oneof(fc.constantFrom("replace", "merge"), nastyString),
      transform: fc.dictionary(nastyString, ruleArb, { maxKeys: 4 }),
      include: fc.array(nastyString, { maxLength: 3 }),
      exclude: fc.array(fc.oneof(nastyString, fc.constantFrom("__proto__", "a.__proto__.x", "dom.map")), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** JSON as JSON.parse would produce it, including `__proto__` as an own key. */
const contextArb = fc.oneof(
  { weight: 5, arbitrary: fc
    .dictionary(fc.oneof(nastyString, fc.constantFrom("title", "a", "x")), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 })
    .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>) },
  { weight: 1, arbitrary: fc.constant(hostileContext()) },
);
/** Hostile work a random combination would rarely hit: each paired with any context, the hostile one included. */
const hostileSelectorArb = fc.constantFrom<unknown>(
  { context_match: [{ path: "$.items[*].s", op: "matches", value: "^(a|a|aa|aaa)*$" }] },
  { context_match: [{ path: "$..s", op: "matches", value: { pattern: "^(a+)+$", flags: "i" } }] },
  { context_match: [{ path: "$..*..*..*..*..*..*..*..*", op: "exists" }] },
  { context_match: [{ path: "$..*[?(@ == $)]", op: "eq", value: 1 }] },
);

const protoContextArb = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"polluted": 1}}}') as Record<string, unknown>,
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as Record<string, unknown>,
);

function typed(e: unknown, ...classes: (abstract new (...a: never[]) => Error)[]) {
  if (!classes.some((c) => e instanceof c)) throw new Error(`untyped error: ${String(e)}`, { cause: e });
}

describe("engine fuzz", () => {
  afterAll(() => {
    console.log(`engine fuzz: ${cases} cases, slowest ${slowest.toFixed(1)} ms: ${slowestCase}`);
  });

  it("selectors: compile or InvalidSelectorError; matching answers or stops on its budget", () => {
    const condition = fc.record(
      { path: pathArb, op: fc.oneof(fc.constantFrom(...SELECTOR_OPS), nastyString), value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), nastyString) },
      { requiredKeys: [] },
    );
    const selector = fc.oneof(
      fc.record(
        {
          schema_name: fc.oneof(nastyString, fc.array(nastyString, { maxLength: 3 })),
          any_tags: fc.array(nastyString, { maxLength: 3 }),
          all_tags: fc.array(nastyString, { maxLength: 3 }),
          none_tags: fc.array(nastyString, { maxLength: 3 }),
          context_match: fc.array(condition, { maxLength: 3 }),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 4 }),
      hostileSelectorArb,
    );
    fc.assert(
      fc.property(selector, fc.oneof(contextArb, protoContextArb), (sel, context) => {
        cases++;
        timed(sel, () => {
          let compiled;
          try {
            compiled = compileSelector(sel);
          } catch (e) {
            typed(e, CrumbsError);
            return;
          }
          try {
            expect(typeof compiled.matches({ schema_name: "a.v1", tags: ["x"], context })).toBe("boolean");
          } catch (e) {
            typed(e, BudgetExceededError);
          }
        });
        assertPrototypeClean();
      }),
      { numRuns: runs(3_000) },
    );
  }, 60_000);

  it("llm_hints: validate or CrumbsError; a validated view renders or throws LlmViewError, never the raw context", () => {
    fc.assert(
      fc.property(hintsArb, fc.oneof(contextArb, protoContextArb), nastyString, (hints, context, title) => {
        cases++;
        timed(hints, () => {
          try {
            validateLlmHints(hints);
          } catch (e) {
            typed(e, CrumbsError);
            return;
          }
          try {
            const view = renderLlmView({ schema_name: "fuzz.v1", title, tags: ["t"], context, llm_hints: hints as never });
            expect(typeof view).toBe("object");
            JSON.stringify(view);
          } catch (e) {
            typed(e, CrumbsError);
          }
        });
        assertPrototypeClean();
      }),
      { numRuns: runs(3_000) },
    );
  }, 60_000);

  it("JSONPath: parse or JsonPathSyntaxError; evaluation answers or stops on its budget, never reaches prototypes", () => {
    fc.assert(
      fc.property(pathArb, fc.oneof(contextArb, protoContextArb), (source, root) => {
        cases++;
        timed(source, () => {
          let path;
          try {
            path = parseJsonPath(source);
          } catch (e) {
            typed(e, JsonPathSyntaxError, CrumbsError);
            return;
          }
          try {
            const all = evaluateJsonPath(path, root);
            expect(Array.isArray(all)).toBe(true);
            extractJsonPath(path, root);
            for (const v of all) expect(v).not.toBe(Object.prototype);
          } catch (e) {
            typed(e, BudgetExceededError);
          }
        });
        assertPrototypeClean();
      }),
      { numRuns: runs(2_000) },
    );
  }, 60_000);

  it("templates and literal expressions: compile or HintCompileError; rendering never runs code", () => {
    const small = { context: { title: "t", a: [1, 2], html: "<b>" }, title: "t", tags: ["x"], schema_name: "a.v1", id: "i", version: 1 };
    const hostile = { ...small, context: hostileContext() };
    fc.assert(
      fc.property(templateArb, nastyString, fc.boolean(), (template, expr, big) => {
        cases++;
        const data = big ? hostile : small;
        timed(template, () => {
          try {
            const out = compileTemplate(template)(data);
            expect(typeof out).toBe("string");
          } catch (e) {
            typed(e, HintCompileError, CrumbsError);
          }
          try {
            evaluateExpression(compileExpression(expr), data);
          } catch (e) {
            typed(e, HintCompileError, CrumbsError);
          }
        });
        assertPrototypeClean();
      }),
      { numRuns: runs(2_500) },
    );
  }, 60_000);
});
