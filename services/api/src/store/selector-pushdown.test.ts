import { describe, expect, it } from "vitest";
import type { ContextMatch } from "@crumbs/schemas";
import { pushedJsonPath, splitContextMatch, strictPathOf } from "./selector-pushdown.ts";

const push = (path: string, op: ContextMatch["op"], value?: unknown) => pushedJsonPath({ path, op, value });

describe("context_match pushed into SQL", () => {
  it("pushes equality on a definite path as a strict jsonpath the GIN index serves", () => {
    expect(push("$.url", "eq", "https://example.com/a")).toBe(
      'strict $."url" ? (@ == "https://example.com/a")',
    );
    expect(push("$.meta['og:title']", "eq", 'say "hi"')).toBe(
      'strict $."meta"."og:title" ? (@ == "say \\"hi\\"")',
    );
    expect(push("$.viewport.scrollY", "eq", 40)).toBe('strict $."viewport"."scrollY" ? (@ == 40)');
    expect(push("$.links[0].hidden", "eq", false)).toBe('strict $."links"[0]."hidden" ? (@ == false)');
    expect(push("$.gone", "eq", null)).toBe('strict $."gone" ? (@ == null)');
    expect(push("$.n", "eq", 1e21)).toBe('strict $."n" ? (@ == 1e+21)');
  });

  it("pushes `in` over scalars as one filter of alternatives, each value once", () => {
    expect(push("$.lang", "in", ["en", "de", "en", 3])).toBe(
      'strict $."lang" ? (@ == "en" || @ == "de" || @ == 3)',
    );
  });

  it("leaves to JS what the index cannot find or jsonpath would answer differently", () => {
    // Not an equality: the index cannot look these up, so SQL would walk every row of the owner.
    for (const op of ["ne", "nin", "contains", "contains_any", "exists", "gt", "lt", "matches"] as const) {
      expect(
        push("$.url", op, op.endsWith("n") || op.startsWith("contains_") ? ["x"] : "x"),
        op,
      ).toBeUndefined();
    }
    expect(push("$.tags", "eq", ["a"])).toBeUndefined(); // jsonpath compares scalars only
    expect(push("$.meta", "eq", { a: 1 })).toBeUndefined();
    expect(push("$.lang", "in", ["en", { a: 1 }])).toBeUndefined();
    expect(push("$.lang", "in", [])).toBeUndefined();
    expect(
      push(
        "$.lang",
        "in",
        Array.from({ length: 101 }, (_, i) => `l${i}`),
      ),
    ).toBeUndefined();
    expect(push("$.t", "eq", "nul\u0000")).toBeUndefined(); // Postgres refuses NUL in a jsonpath string
    expect(push("$.t", "eq", "lone \ud800")).toBeUndefined();
  });

  it("pushes only paths jsonpath walks as the JS walker does", () => {
    expect(strictPathOf("$")).toBe("strict $");
    expect(strictPathOf("$.a.b[2]")).toBe('strict $."a"."b"[2]');
    expect(strictPathOf("$.list.length")).toBeUndefined(); // JS reads an array's own `length`
    expect(strictPathOf("$.list.0")).toBeUndefined(); // ... and its digit names
    expect(strictPathOf("$.list[-1]")).toBeUndefined(); // JS counts from the end, strict jsonpath errs
    expect(strictPathOf("$.*")).toBeUndefined();
    expect(strictPathOf("$..url")).toBeUndefined();
    expect(strictPathOf("$.links[?(@.hidden)]")).toBeUndefined();
    expect(strictPathOf("$['a','b']")).toBeUndefined();
    expect(strictPathOf("url")).toBeUndefined(); // invalid: the compiled selector reports it
  });

  it("splits a selector into pushed conditions and the rest", () => {
    const split = splitContextMatch({
      context_match: [
        { path: "$.url", op: "eq", value: "u" },
        { path: "$.title", op: "contains", value: "Docs" },
      ],
    });
    expect(split.pushed).toEqual(['strict $."url" ? (@ == "u")']);
    expect(split.rest).toEqual([{ path: "$.title", op: "contains", value: "Docs" }]);
  });
});
