import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { CrumbsError } from "./errors.ts";
import { compileExpression, evaluateExpression } from "./expression.ts";
import { HintCompileError } from "./hint-compile-error.ts";
import { evaluateJsonPath, extractJsonPath, JsonPathSyntaxError, parseJsonPath } from "./json-path.ts";
import { validateLlmHints } from "./llm-hints-validate.ts";
import { renderLlmView } from "./llm-view.ts";
import { compileSelector } from "./selector-compile.ts";
import { SELECTOR_OPS } from "./selector-schema.ts";
import { compileTemplate } from "./template-engine.ts";

// Hostile input for the pure engines every side shares. Whatever arrives, an engine
// either works or throws its own typed error; it never throws anything else, never
// hangs, and never writes to Object.prototype. CRUMBS_FUZZ_SCALE multiplies the runs.

const SCALE = Number(process.env.CRUMBS_FUZZ_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
let cases = 0;

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
    "(a+)+$", "a".repeat(600),
  ),
);

const pathArb = fc.oneof(
  fc.constantFrom(
    "$", "$.a", "$..a", "$.a[*]", "$.a[0]", "$.a[-1]", "$.a[1:3]", "$.a[::-1]", "$['a b']", "$[\"__proto__\"]",
    "$.__proto__.polluted", "$.constructor.prototype", "$..constructor", "$[?(@.x > 1)]", "$[?(@.constructor)]",
    "$[?(this.constructor.constructor('return process')())]", "$..[?(@ == 'x')]", "$[(@.length-1)]", "$.a.b.c.d",
    "$[", "$.", "$..", "$[?(", "$[0:999999999999]", "$.a[*][*][*]",
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
const contextArb = fc
  .dictionary(fc.oneof(nastyString, fc.constantFrom("title", "a", "x")), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 })
  .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
const protoContextArb = fc.constantFrom(
  JSON.parse('{"__proto__": {"polluted": true}, "a": {"__proto__": {"polluted": 1}}}') as Record<string, unknown>,
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as Record<string, unknown>,
);

function typed(e: unknown, ...classes: (abstract new (...a: never[]) => Error)[]) {
  if (!classes.some((c) => e instanceof c)) throw new Error(`untyped error: ${String(e)}`, { cause: e });
}

describe("engine fuzz", () => {
  afterAll(() => {
    console.log(`engine fuzz: ${cases} cases`);
  });

  it("selectors: compile or InvalidSelectorError; matching never throws", () => {
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
    );
    fc.assert(
      fc.property(selector, fc.oneof(contextArb, protoContextArb), (sel, context) => {
        cases++;
        let compiled;
        try {
          compiled = compileSelector(sel);
        } catch (e) {
          typed(e, CrumbsError);
          return;
        }
        expect(typeof compiled.matches({ schema_name: "a.v1", tags: ["x"], context })).toBe("boolean");
        assertPrototypeClean();
      }),
      { numRuns: runs(3_000) },
    );
  }, 60_000);

  it("llm_hints: validate or CrumbsError; a validated view renders or throws LlmViewError, never the raw context", () => {
    fc.assert(
      fc.property(hintsArb, fc.oneof(contextArb, protoContextArb), nastyString, (hints, context, title) => {
        cases++;
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
        assertPrototypeClean();
      }),
      { numRuns: runs(3_000) },
    );
  }, 60_000);

  it("JSONPath: parse or JsonPathSyntaxError; evaluation never throws and never reaches prototypes", () => {
    fc.assert(
      fc.property(pathArb, fc.oneof(contextArb, protoContextArb), (source, root) => {
        cases++;
        let path;
        try {
          path = parseJsonPath(source);
        } catch (e) {
          typed(e, JsonPathSyntaxError, CrumbsError);
          return;
        }
        const all = evaluateJsonPath(path, root);
        expect(Array.isArray(all)).toBe(true);
        extractJsonPath(path, root);
        for (const v of all) expect(v).not.toBe(Object.prototype);
        assertPrototypeClean();
      }),
      { numRuns: runs(2_000) },
    );
  }, 60_000);

  it("templates and literal expressions: compile or HintCompileError; rendering never runs code", () => {
    const data = { context: { title: "t", a: [1, 2], html: "<b>" }, title: "t", tags: ["x"], schema_name: "a.v1", id: "i", version: 1 };
    fc.assert(
      fc.property(templateArb, nastyString, (template, expr) => {
        cases++;
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
        assertPrototypeClean();
      }),
      { numRuns: runs(2_500) },
    );
  }, 60_000);
});
