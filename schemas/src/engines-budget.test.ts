import { describe, expect, it } from "vitest";
import { BudgetExceededError, createWorkBudget } from "./budget.ts";
import { InvalidLlmHintsError } from "./contract/errors.ts";
import { evaluateJsonPath, parseJsonPath } from "./json-path/json-path.ts";
import { validateLlmHints } from "./llm-view/llm-hints-validate.ts";
import { renderLlmView } from "./llm-view/llm-view.ts";
import { compileSafeRegex } from "./selector/regex.ts";
import { compileSelector } from "./selector/selector-compile.ts";
import { MAX_TEMPLATE_ITERATIONS } from "./lang/template-budget.ts";
import { compileTemplate } from "./lang/template-engine.ts";

// Hostile work stops fast with a typed error (or, in a view, an error entry), whatever the engine.
// Bounds are CPU milliseconds of this test process (on a 2-core machine shared with other jobs,
// wall time mostly measures the neighbours); generous, what they catch is a hang.
const FAST_MS = 250;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function within<T>(ms: number, run: () => T): T {
  const started = cpuMs();
  try {
    return run();
  } finally {
    expect(cpuMs() - started).toBeLessThan(ms);
  }
}

function deepObject(levels: number): Record<string, unknown> {
  let o: Record<string, unknown> = { leaf: "x" };
  for (let i = 0; i < levels; i++) o = { a: o, b: { c: i, d: [i, i + 1] } };
  return o;
}

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i, name: `item ${i}` }));

describe("the work budget", () => {
  it("throws budget_exceeded (422) past its units, and a child's spending counts in its parent", () => {
    const parent = createWorkBudget({ units: 10, what: "request" });
    const child = parent.child(8, "row");
    child.spend(5);
    expect(parent.used).toBe(5);
    expect(() => child.spend(4)).toThrow(BudgetExceededError);
    try {
      parent.spend(6);
      expect.unreachable();
    } catch (e) {
      const err = e as BudgetExceededError;
      expect([err.code, err.status, err.reason, err.budget]).toEqual(["budget_exceeded", 422, "units", parent]);
      expect(err.message).toBe("request stopped: it needs more than 10 work units");
      expect(JSON.parse(JSON.stringify(err))).toEqual({ error: "budget_exceeded", message: err.message, details: { limit: { name: "request", max: 10, unit: "work units" } } });
    }
  });

  it("throws a 503 past its deadline, checked as work is spent and on demand", () => {
    let now = 0;
    const b = createWorkBudget({ units: 1e9, deadlineMs: 100, what: "request", now: () => now });
    b.spend(5_000);
    now = 150;
    expect(() => b.checkDeadline()).toThrow(/ran past its 100 ms deadline/);
    const child = b.child(1e9);
    expect(() => child.spend(2_000)).toThrow(expect.objectContaining({ status: 503, reason: "deadline" }));
  });
});

describe("regexes run in linear time (RE2)", () => {
  it("an overlapping alternation on a long non-matching string answers at once", () => {
    // With a backtracking engine (RegExp) this is exponential: 30 characters already take seconds.
    const hostile = "a".repeat(100_000) + "b";
    const sel = compileSelector({ context_match: [{ path: "$.s", op: "matches", value: "^(a|a|aa|aaa)*$" }] });
    expect(within(FAST_MS, () => sel.matches({ schema_name: "x.v1", tags: [], context: { s: hostile } }))).toBe(false);
    expect(sel.matches({ schema_name: "x.v1", tags: [], context: { s: "aaaa" } })).toBe(true);
    // Nested quantifiers, refused before, are harmless now.
    const nested = compileSelector({ context_match: [{ path: "$.s", op: "matches", value: "^(a+)+$" }] });
    expect(within(FAST_MS, () => nested.matches({ schema_name: "x.v1", tags: [], context: { s: hostile } }))).toBe(false);
  });

  it("supports the flags i, m, s (u is accepted and changes nothing)", () => {
    expect(compileSafeRegex("straße", "i").test("STRASSE")).toBe(false);
    expect(compileSafeRegex("héllo", "iu").test("HÉLLO")).toBe(true);
    expect(compileSafeRegex("^b$", "m").test("a\nb\nc")).toBe(true);
    expect(compileSafeRegex("^b$").test("a\nb\nc")).toBe(false);
    expect(compileSafeRegex("a.c", "s").test("a\nc")).toBe(true);
    expect(compileSafeRegex("a.c").test("a\nc")).toBe(false);
    expect(compileSafeRegex("\\x{e9}|\\p{Greek}").test("α")).toBe(true);
    expect(() => compileSafeRegex("a", "g")).toThrow("flags may only be i, m, s, u");
  });

  it("charges long inputs to the budget", () => {
    const sel = compileSelector({ context_match: [{ path: "$.s", op: "matches", value: "z" }] });
    const budget = createWorkBudget({ units: 1_000 });
    expect(() => sel.matches({ schema_name: "x.v1", tags: [], context: { s: "a".repeat(100_000) } }, budget)).toThrow(BudgetExceededError);
  });
});

describe("JSONPath stops past its budget", () => {
  const deep = deepObject(30);
  it("repeated ..* on a 30-level object stops fast with a typed error", () => {
    const path = parseJsonPath("$..*..*..*..*..*..*..*..*");
    expect(() => within(FAST_MS, () => evaluateJsonPath(path, deep))).toThrow(BudgetExceededError);
  });
  it("the same in a selector", () => {
    const sel = compileSelector({ context_match: [{ path: "$..*..*..*..*..*..*..*..*", op: "eq", value: "nope" }] });
    expect(() => within(FAST_MS, () => sel.matches({ schema_name: "x.v1", tags: [], context: deep }))).toThrow(
      expect.objectContaining({ code: "budget_exceeded", message: expect.stringContaining("selector stopped") }),
    );
  });
  it("ordinary paths on the same object are well within it", () => {
    expect(evaluateJsonPath(parseJsonPath("$..leaf"), deep)).toEqual(["x"]);
    expect(evaluateJsonPath(parseJsonPath("$..*"), deep).length).toBe(30 * 6 + 1);
  });
});

describe("templates are bounded", () => {
  it("loops nested deeper than 3 are refused when written", () => {
    const four = "{{#each a}}{{#each b}}{{#items}}{{#each d}}x{{/each}}{{/items}}{{/each}}{{/each}}";
    expect(() => compileTemplate(four)).toThrow("nested more than 3 deep");
    expect(() => validateLlmHints({ transform: { t: { type: "template", template: four } } })).toThrow(InvalidLlmHintsError);
    expect(() => compileTemplate("{{#each a}}{{#if x}}{{#with y}}{{#each b}}{{#each c}}x{{/each}}{{/each}}{{/with}}{{/if}}{{/each}}")).not.toThrow();
  });

  it("three nested #each over 300 items stop on the work budget, or at the iteration limit when the budget is roomy", () => {
    const tpl = compileTemplate("{{#each context.items}}{{#each ../context.items}}{{#each ../../context.items}}{{i}}{{/each}}{{/each}}{{/each}}");
    expect(() => within(FAST_MS, () => tpl({ context: { items: items(300) } }))).toThrow("template stopped: it needs more than");
    const roomy = createWorkBudget({ units: 100_000_000 });
    expect(() => within(FAST_MS, () => tpl({ context: { items: items(300) } }, roomy))).toThrow(`more than ${MAX_TEMPLATE_ITERATIONS} #each iterations`);
  });

  it("helpers that serialise big values inside loops run out of work units", () => {
    const tpl = compileTemplate("{{#each context.items}}{{truncate ../context 5}}{{/each}}");
    expect(() => within(FAST_MS, () => tpl({ context: { items: items(3_000), pad: "p".repeat(20_000) } }))).toThrow(BudgetExceededError);
  });

  it("ordinary loops render", () => {
    expect(compileTemplate("{{#each context.items}}{{name}};{{/each}}")({ context: { items: items(3) } })).toBe("item 0;item 1;item 2;");
  });
});

describe("an llm view is bounded and fails closed", () => {
  const hostile = "{{#each context.items}}{{#each ../context.items}}{{#each ../../context.items}}{{name}}{{/each}}{{/each}}{{/each}}";
  const crumb = (llm_hints: unknown) => ({
    schema_name: "x.v1",
    title: "t",
    tags: [],
    context: { items: items(300), secret: "s3cret", deep: deepObject(30) },
    llm_hints: llm_hints as never,
  });

  it("a transform over budget becomes an error entry; the others render; excluded fields stay out", () => {
    // Three transforms each running to its limit: a wider bound than one engine case.
    const view = within(2 * FAST_MS, () =>
      renderLlmView(
        crumb({
          mode: "merge",
          // Transforms run in order; the cheap one first, since the hostile two may use up the
          // time all transforms of a view get together.
          transform: {
            count: { type: "template", template: "{{context.items.length}} items" },
            loops: { type: "template", template: hostile },
            walk: { type: "extract", value: "$..*..*..*..*..*..*..*..*" },
          },
          exclude: ["secret", "deep"],
        }),
      ),
    );
    expect(view.loops).toEqual({ error: "budget_exceeded", message: expect.stringMatching(/^(transform loops|llm view transforms) stopped/) });
    expect(view.walk).toEqual({ error: "budget_exceeded", message: expect.stringMatching(/^(transform walk|llm view transforms) stopped/) });
    expect(view.count).toBe("300 items");
    expect(JSON.stringify(view)).not.toContain("s3cret");
    expect(view).not.toHaveProperty("deep");
  });

  it("the caller's budget running out throws instead", () => {
    const request = createWorkBudget({ units: 1_000, what: "request" });
    expect(() => renderLlmView(crumb({ transform: { loops: { type: "template", template: hostile } } }), undefined, request)).toThrow(
      expect.objectContaining({ code: "budget_exceeded", budget: request }),
    );
  });

  it("more than 64 transforms are refused when written", () => {
    const transform = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`t${i}`, { type: "extract", value: "$.a" }]));
    expect(() => validateLlmHints({ transform })).toThrow("at most 64 transforms");
  });
});
