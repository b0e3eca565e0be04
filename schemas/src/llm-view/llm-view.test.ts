import { describe, expect, it } from "vitest";
import { InvalidLlmHintsError, LlmViewError } from "../contract/errors.ts";
import { REFERENCE_PAGE_CONTEXT, REFERENCE_PAGE_HINTS, REFERENCE_PAGE_CONTEXT_TAGS } from "../contract/fixtures/page-context-example.ts";
import { mergeHints } from "./llm-hints-merge.ts";
import type { LlmHints } from "./llm-hints-schema.ts";
import { validateLlmHints } from "./llm-hints-validate.ts";
import { hintsForBreadcrumb, renderLlmView, type LlmViewInput } from "./llm-view.ts";

const pageCrumb: LlmViewInput = {
  id: "7b7f1f0e-3f5a-4c1e-9a55-1d6c2c7f0a11",
  version: 4,
  schema_name: "browser.page.context.v1",
  title: "Browser: RCRT Documentation",
  tags: REFERENCE_PAGE_CONTEXT_TAGS,
  context: structuredClone(REFERENCE_PAGE_CONTEXT) as Record<string, unknown>,
};

const crumb = (context: Record<string, unknown>, llm_hints?: LlmHints, schema_name = "test.thing.v1"): LlmViewInput => ({
  id: "00000000-0000-4000-8000-000000000001",
  version: 1,
  schema_name,
  title: "A thing",
  tags: ["t"],
  context,
  ...(llm_hints ? { llm_hints } : {}),
});

describe("the reference page context", () => {
  const view = renderLlmView(pageCrumb);

  it("has the built-in summary", () => {
    expect(view.summary).toBe(
      "The user is viewing 'RCRT Documentation' at github.com. The page has 3 sections and 2 links. The snapshot lists 4 elements that can be acted on by ref.",
    );
  });

  it("keeps each fact once: the snapshot for the text and what can be acted on, no content or dom copies", () => {
    expect(view.url).toBe("https://github.com/rcrt/docs");
    expect(view.domain).toBe("github.com");
    expect((view.snapshot as { text: string }).text).toContain('- button "Search" [ref=e4]');
    expect(view.content).toBeUndefined();
    expect(view.dom).toBeUndefined();
    expect(view.favicon).toBeUndefined();
    expect(view.meta).toEqual({ description: REFERENCE_PAGE_CONTEXT.meta.description, keywords: REFERENCE_PAGE_CONTEXT.meta.keywords });
    for (const gone of ["interactive_summary", "page_text", "page_structure"]) expect(view[gone], gone).toBeUndefined();
  });

  it("shows the pcd when the context has one", () => {
    const pcd = { url: "https://github.com/rcrt/docs", origin: "https://github.com", title: "RCRT Documentation", loginState: "out", landmarks: [], actions: [], forms: [], collections: [] };
    const v = renderLlmView({ ...pageCrumb, context: { ...structuredClone(REFERENCE_PAGE_CONTEXT), pcd } });
    expect(v.pcd).toEqual(pcd);
    expect(v.summary).toMatch(/The pcd sums up what the page offers \(login state out/);
  });

  it("a writer's own hints bring a hidden fact back under a name of their own", () => {
    const v = renderLlmView({ ...pageCrumb, llm_hints: { transform: { page_text: { type: "extract", value: "$.content.mainText" } } } });
    expect(v.page_text).toBe(REFERENCE_PAGE_CONTEXT.content.mainText);
    expect(v.content).toBeUndefined();
  });

  it("drops dom.map, the session ids and the hints themselves", () => {
    expect(view.session).toEqual({ userId: REFERENCE_PAGE_CONTEXT.session.userId, capturedAt: REFERENCE_PAGE_CONTEXT.session.capturedAt });
    expect(view.llm_hints).toBeUndefined();
    const text = JSON.stringify(view);
    expect(text).not.toContain("abcdefghijklmnop");
    expect(text).not.toContain('"tagName"');
  });

  it("is a fresh object: the breadcrumb is not modified", () => {
    (view.snapshot as { text: string }).text = "mutated";
    expect((pageCrumb.context.snapshot as { text: string }).text).toContain("Introduction");
  });

  it("without the reference hints, the built-in defaults still summarise and hide the noise", () => {
    const { llm_hints: _drop, ...ctx } = REFERENCE_PAGE_CONTEXT;
    const v = renderLlmView({ ...pageCrumb, context: ctx });
    expect(v.summary).toBe(
      "The user is viewing 'RCRT Documentation' at github.com. The page has 3 sections and 2 links. The snapshot lists 4 elements that can be acted on by ref.",
    );
    expect((v.dom as Record<string, unknown>).map).toBeUndefined();
    expect(v.content).toEqual(REFERENCE_PAGE_CONTEXT.content);
    expect(v.snapshot).toEqual(REFERENCE_PAGE_CONTEXT.snapshot);
  });

  it("the reference hints validate", () => {
    expect(validateLlmHints(REFERENCE_PAGE_HINTS)).toEqual(REFERENCE_PAGE_HINTS);
  });
});

describe("modes, include and exclude", () => {
  const ctx = { a: 1, b: { c: 2, d: 3 }, list: [{ x: 1, y: 2 }, { x: 3, y: 4 }], secret: "s" };

  it("replace is the default when there are transforms", () => {
    expect(renderLlmView(crumb(ctx, { transform: { one: { type: "literal", literal: 1 } } }))).toEqual({ one: 1 });
  });
  it("without any transform the view is the context (exclude applied)", () => {
    expect(renderLlmView(crumb(ctx))).toEqual(ctx);
    expect(renderLlmView(crumb(ctx, { exclude: ["secret", "b.c"] }))).toEqual({ a: 1, b: { d: 3 }, list: ctx.list });
  });
  it("merge: outputs win on a clash and come first", () => {
    const v = renderLlmView(crumb(ctx, { mode: "merge", transform: { a: { type: "literal", literal: "won" } } }));
    expect(v.a).toBe("won");
    expect(Object.keys(v)).toEqual(["a", "b", "list", "secret"]);
  });
  it("include keeps only the named paths, plus the outputs", () => {
    const v = renderLlmView(
      crumb(ctx, { mode: "merge", include: ["b.c", "list.x", "nope.deeper"], transform: { t: { type: "template", template: "{{context.a}}" } } }),
    );
    expect(v).toEqual({ t: "1", b: { c: 2 }, list: [{ x: 1 }, { x: 3 }] });
  });
  it("exclude works through arrays and on outputs, and never leaks", () => {
    const v = renderLlmView(
      crumb(ctx, {
        mode: "merge",
        transform: { copy: { type: "extract", value: "$.b" }, all: { type: "extract", value: "$.list[*]" } },
        exclude: ["list.y", "copy.d", "all.y", "secret"],
      }),
    );
    expect(v).toEqual({ copy: { c: 2 }, all: [{ x: 1 }, { x: 3 }], a: 1, b: ctx.b, list: [{ x: 1 }, { x: 3 }] });
    expect(JSON.stringify(v)).not.toContain('"s"');
  });
  it("extract: definite path value or null, indefinite path an array", () => {
    const v = renderLlmView(
      crumb(ctx, {
        transform: {
          v: { type: "extract", value: "$.b.c" },
          none: { type: "extract", value: "$.b.zzz" },
          many: { type: "extract", value: "$..x" },
          empty: { type: "extract", value: "$.zzz[*]" },
        },
      }),
    );
    expect(v).toEqual({ v: 2, none: null, many: [1, 3], empty: [] });
  });
  it("extract with a filter gives an array of the matching items", () => {
    const page = { content: { links: [{ href: "/docs", text: "Docs" }, { href: "/blog", text: "Blog" }, { href: "/docs", text: "More" }] } };
    const v = renderLlmView(
      crumb(page, {
        transform: {
          docs: { type: "extract", value: "$.content.links[?(@.href == '/docs')].text" },
          none: { type: "extract", value: "$.content.links[?(@.href == '/x')].text" },
        },
      }),
    );
    expect(v).toEqual({ docs: ["Docs", "More"], none: [] });
  });
  it("literal: deep copy, typed expressions, other strings with {{ rendered", () => {
    const v = renderLlmView(
      crumb(ctx, {
        transform: {
          lit: {
            type: "literal",
            literal: {
              plain: "no braces",
              n: 7,
              nested: [{ list: "{{context.list}}" }, "{{ context.a == 1 }}"],
              text: "a is {{context.a}}",
              helper: "{{join tags}}",
              missing: "{{context.nope}}",
            },
          },
        },
      }),
    );
    expect(v.lit).toEqual({
      plain: "no braces",
      n: 7,
      nested: [{ list: ctx.list }, true],
      text: "a is 1",
      helper: "t",
      missing: null,
    });
  });
  it("templates see title, tags, schema_name, id and version", () => {
    const v = renderLlmView(
      crumb(ctx, { transform: { t: { type: "template", template: "{{title}}|{{join tags}}|{{schema_name}}|{{id}}|{{version}}" } } }),
    );
    expect(v.t).toBe("A thing|t|test.thing.v1|00000000-0000-4000-8000-000000000001|1");
  });
  it("a __proto__ key in the data stays data", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const v = renderLlmView(crumb(hostile));
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
  });
});

describe("hint layers", () => {
  it("mergeHints: later wins per key, excludes joined, include and mode from the last that has them", () => {
    const merged = mergeHints([
      { mode: "merge", transform: { a: { type: "literal", literal: 1 }, b: { type: "literal", literal: 1 } }, exclude: ["x"], include: ["i"] },
      undefined,
      { transform: { b: { type: "literal", literal: 2 } }, exclude: ["y", "x"] },
      { mode: "replace" },
    ]);
    expect(merged).toEqual({
      mode: "replace",
      transform: { a: { type: "literal", literal: 1 }, b: { type: "literal", literal: 2 } },
      exclude: ["x", "y"],
      include: ["i"],
    });
  });
  it("order: built-in, schema.def, context.llm_hints, top-level llm_hints", () => {
    const b = {
      ...pageCrumb,
      context: { ...pageCrumb.context, llm_hints: { transform: { who: { type: "literal", literal: "context" } } } },
      llm_hints: { transform: { top: { type: "literal", literal: "top" } } } as LlmHints,
    };
    const schemaDef: LlmHints = { transform: { who: { type: "literal", literal: "schema" }, summary: { type: "literal", literal: "S" } } };
    const hints = hintsForBreadcrumb(b, schemaDef);
    expect(hints.transform?.who).toEqual({ type: "literal", literal: "context" });
    expect(hints.transform?.summary).toEqual({ type: "literal", literal: "S" });
    expect(hints.exclude).toContain("dom.map");
    const v = renderLlmView(b, schemaDef);
    expect([v.who, v.top, v.summary]).toEqual(["context", "top", "S"]);
  });
  it("a schema.def.v1's own context.llm_hints do not shape its view", () => {
    const def = crumb({ defines: "x.v1", llm_hints: { transform: { a: { type: "literal", literal: 1 } } } }, undefined, "schema.def.v1");
    expect(hintsForBreadcrumb(def)).toEqual({});
    expect(renderLlmView(def)).toEqual({ defines: "x.v1" });
  });
});

describe("fails closed", () => {
  it("bad hints inside the context: LlmViewError, no raw context", () => {
    const b = crumb({ secret: "s", llm_hints: { transform: { t: { type: "template", template: "{{#if}}" } } } });
    expect(() => renderLlmView(b)).toThrow(LlmViewError);
    const b2 = crumb({ secret: "s", llm_hints: { mode: "sideways" } });
    expect(() => renderLlmView(b2)).toThrow(LlmViewError);
  });
  it("a hostile template in stored hints is refused at read time too", () => {
    const b = crumb({ a: 1 }, { transform: { t: { type: "template", template: '{{constructor.constructor "return process"}}' } } });
    try {
      renderLlmView(b);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(LlmViewError);
      expect((e as LlmViewError).code).toBe("invalid_llm_hints");
      expect((e as LlmViewError).status).toBe(422);
      expect((e as LlmViewError).details).toEqual({ issues: [expect.objectContaining({ path: ["transform", "t"], code: "transform_failed" })] });
    }
  });
  it("a deeply nested context is a typed error, not a crash", () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20_000; i++) deep = { n: deep };
    expect(() => renderLlmView(crumb({ deep }))).toThrow(LlmViewError);
    expect(() => renderLlmView(crumb({ deep }, { transform: { j: { type: "template", template: "{{json context}}" } } }))).toThrow(LlmViewError);
    const view = renderLlmView(crumb({ deep }, { transform: { d: { type: "extract", value: "$..leaf" } } }));
    // Walking 20k levels takes most of one transform's work units and, on a loaded machine, more
    // than its 15 ms: the answer, or an error entry; never a crash.
    expect(Object.keys(view)).toEqual(["d"]);
    if (Array.isArray(view.d)) expect(view.d).toEqual([1]);
    else expect(view.d).toEqual({ error: "budget_exceeded", message: expect.stringMatching(/^transform d stopped/) });
  });
});

describe("validateLlmHints", () => {
  const bad = (hints: unknown, why: string) => {
    expect(() => validateLlmHints(hints)).toThrow(InvalidLlmHintsError);
    expect(() => validateLlmHints(hints)).toThrow(why);
  };
  it("names the transform key", () => {
    try {
      validateLlmHints({ transform: { ok: { type: "literal", literal: 1 }, broken: { type: "extract", value: "$[?(this.x)]" } } });
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidLlmHintsError).details).toEqual({
        issues: [{ path: ["llm_hints", "transform", "broken"], code: "invalid_rule", message: expect.stringMatching(/^extract: /) }],
      });
    }
  });
  it.each([
    [{ mode: "both" }, "mode"],
    [{ transform: { t: { type: "shell", cmd: "ls" } } }, "transform"],
    [{ transform: { t: { type: "template" } } }, "template"],
    [{ transform: { t: { type: "template", template: "{{#each}}" } } }, "transform.t"],
    [{ transform: { t: { type: "extract", value: "content.mainText" } } }, "must start with $"],
    [{ transform: { t: { type: "extract", value: "$..[?(@.constructor.constructor('return process')())]" } } }, '"constructor" is not allowed'],
    [{ transform: { t: { type: "extract", value: "$[?(@.a = 1)]" } } }, "assignment is not allowed"],
    [{ transform: { t: { type: "extract", value: "$[?(process.exit())]" } } }, 'not "process"'],
    [{ transform: { t: { type: "literal", literal: { x: "{{ a == }}" } } } }, "transform.t"],
    [{ transform: { t: { type: "literal", literal: "{{constructor}}" } } }, "constructor"],
    [JSON.parse('{"transform": {"__proto__": {"type": "literal", "literal": 1}}}'), "__proto__"],
    [{ exclude: ["a..b"] }, "exclude"],
    [{ extra: true }, "extra"],
    ["not an object", "llm_hints"],
  ])("%j", (hints, why) => bad(hints, why));
  it("refuses a literal nested too deeply", () => {
    let lit: unknown = 1;
    for (let i = 0; i < 100; i++) lit = { x: lit };
    bad({ transform: { t: { type: "literal", literal: lit } } }, "nested deeper");
  });
});
