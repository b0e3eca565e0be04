import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateExpression, parseExpression } from "./expression.ts";
import { HintCompileError } from "./hint-compile-error.ts";

const data = {
  context: {
    title: "Docs",
    n: 3,
    content: { forms: [{}], headings: ["A", "B"], links: [] },
    dom: { interactiveElements: { "0": {}, "1": {}, "2": {} } },
    obj: { length: 42 },
  },
  tags: ["a", "b"],
  version: 2,
};
const ev = (src: string) => evaluateExpression(parseExpression(src), data);

describe("expressions", () => {
  it("paths keep their type", () => {
    expect(ev("context.content.headings")).toEqual(["A", "B"]);
    expect(ev("context.title")).toBe("Docs");
    expect(ev("tags[1]")).toBe("b");
    expect(ev("tags[-1]")).toBe("b");
    expect(ev("context.missing.deeper")).toBeUndefined();
  });
  it(".length of arrays, strings and plain objects (own length wins)", () => {
    expect(ev("context.content.forms.length")).toBe(1);
    expect(ev("context.title.length")).toBe(4);
    expect(ev("context.dom.interactiveElements.length")).toBe(3);
    expect(ev("context.obj.length")).toBe(42);
  });
  it("comparisons", () => {
    expect(ev("context.content.forms.length > 0")).toBe(true);
    expect(ev("context.content.links.length > 0")).toBe(false);
    expect(ev("context.n >= 3")).toBe(true);
    expect(ev("context.n < 3")).toBe(false);
    expect(ev("context.n <= 3")).toBe(true);
    expect(ev("context.title == 'Docs'")).toBe(true);
    expect(ev('context.title != "Docs"')).toBe(false);
    expect(ev("context.content.headings == context.content.headings")).toBe(true);
    expect(ev("context.title > 3")).toBe(false);
    expect(ev("context.missing == null")).toBe(true);
  });
  it("logic, negation and parentheses", () => {
    expect(ev("!context.content.links")).toBe(true);
    expect(ev("!!context.title")).toBe(true);
    expect(ev("context.n > 1 && context.n < 5")).toBe(true);
    expect(ev("context.n > 5 || context.title == 'Docs'")).toBe(true);
    expect(ev("!(context.n > 1 && false)")).toBe(true);
    expect(ev("context.missing || 'fallback'")).toBe("fallback");
    expect(ev("true && 5")).toBe(5);
    expect(ev("-1.5 < 0")).toBe(true);
  });
  it.each([
    "",
    "context.",
    "a ===  b",
    "(a",
    "a b",
    "constructor",
    "context.constructor.constructor",
    "context.__proto__",
    "a[x]",
    "process.exit()",
    "'unterminated",
    "a + 1",
    "@.a",
    "$.a",
    "a = 1",
    "a; b",
    "`x`",
    "(a) => a",
    "context.title()",
  ])("rejects %j", (src) => {
    expect(() => parseExpression(src)).toThrow(HintCompileError);
  });
  it("quoted names in brackets", () => {
    expect(evaluateExpression(parseExpression("context['title']"), data)).toBe("Docs");
    expect(() => parseExpression("context['__proto__']")).toThrow('"__proto__" is not allowed');
  });
  it("filter mode: paths start at @ (the item) or $ (the root), nothing else", () => {
    const scope = { "@": { price: 3, tags: [] }, $: { limit: 5 } };
    const f = (src: string) => evaluateExpression(parseExpression(src, { filter: true }), scope);
    expect(f("@.price < $.limit")).toBe(true);
    expect(f("@.tags")).toEqual([]);
    expect(f("!@.tags")).toBe(true);
    expect(f("@.missing == null")).toBe(true);
    expect(() => parseExpression("context.title", { filter: true })).toThrow('not "context"');
    expect(() => parseExpression("@.a(1)", { filter: true })).toThrow("function calls are not allowed");
    expect(() => parseExpression("@.a = 1", { filter: true })).toThrow("assignment is not allowed");
    expect(() => parseExpression("@.constructor", { filter: true })).toThrow('"constructor" is not allowed');
  });
  it("deep nesting is a typed error, not a stack overflow", () => {
    expect(() => parseExpression("(".repeat(5000) + "1" + ")".repeat(5000))).toThrow(HintCompileError);
    expect(() => parseExpression("!".repeat(500) + "1")).toThrow(HintCompileError);
  });
  it("never throws anything but HintCompileError, and evaluating a parsed expression never throws", () => {
    const alphabet = fc.constantFrom(..."ab.()[]!=<>&|'\"0123456789 -_ctxlength".split(""), "context", "length", "&&", "||", "==", "true", "null");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const src = parts.join("");
        let expr;
        try {
          expr = parseExpression(src);
        } catch (e) {
          expect(e).toBeInstanceOf(HintCompileError);
          return;
        }
        evaluateExpression(expr, data);
      }),
      { numRuns: 1000 },
    );
  }, 30_000);
});
