import { describe, expect, it } from "vitest";
import { selectorMatcher } from "./selector.ts";
import type { Breadcrumb } from "./known.ts";

const crumb = (context: Record<string, unknown>) => ({ schema_name: "x.v1", tags: [], context }) as unknown as Breadcrumb;

describe("selectorMatcher", () => {
  it("matches with the shared engine, RE2 regexes included", () => {
    const m = selectorMatcher({ context_match: [{ path: "$.s", op: "matches", value: "^(a|a|aa)*$" }] });
    expect(m(crumb({ s: "aaaa" }))).toBe(true);
    expect(m(crumb({ s: "a".repeat(50_000) + "b" }))).toBe(false);
  });

  it("a selector over its work budget on one breadcrumb does not match it, and does not throw", () => {
    let deep: Record<string, unknown> = { leaf: "x" };
    for (let i = 0; i < 30; i++) deep = { a: deep, b: { c: i, d: [i, i + 1] } };
    const m = selectorMatcher([{ context_match: [{ path: "$..*..*..*..*..*..*..*..*", op: "exists" }] }, { schema_name: "y.v1" }]);
    expect(m(crumb({ deep }))).toBe(false);
  });
});
