import { JSONPath } from "jsonpath-plus";
import { describe, expect, it } from "vitest";
import { evaluateJsonPath, extractJsonPath, JsonPathSyntaxError, parseJsonPath } from "./json-path.ts";

const doc = {
  url: "https://x.test/a",
  content: {
    headings: ["A", "B", "C"],
    links: [
      { text: "one", href: "/1" },
      { text: "two", href: "/2" },
    ],
  },
  "og:title": "T",
  nested: { a: { name: "deep" }, b: [{ name: "in-array" }] },
};

describe("parseJsonPath", () => {
  it.each([
    "$",
    "$.url",
    "$.content.headings[0]",
    "$.content.headings[-1]",
    "$.content.links[*].href",
    "$..name",
    "$..*",
    "$['og:title']",
    '$["og:title"]',
    "$.content.headings[0:2]",
    "$.content.headings[::2]",
    "$.content.links[0,1]",
    "$..[0]",
  ])("accepts %s", (p) => {
    expect(() => parseJsonPath(p)).not.toThrow();
  });

  it.each([
    ["", "must start with $"],
    ["url", "must start with $"],
    ["$.", "expected a name"],
    ["$..", "expected a name"],
    ["$[", "expected"],
    ["$.a[?(@.b)]", "filter and script"],
    ["$..[?(@.constructor)]", "filter and script"],
    ["$[(@.length-1)]", "filter and script"],
    ["$.a[1:2:0]", "positive"],
    ["$['unterminated]", "unterminated"],
    ["$.a b", "unexpected"],
    ["$.a~", "unexpected"],
    ["$.a^", "unexpected"],
  ])("rejects %j", (p, why) => {
    expect(() => parseJsonPath(p)).toThrow(JsonPathSyntaxError);
    expect(() => parseJsonPath(p)).toThrow(why);
  });

  it("rejects overlong paths", () => {
    expect(() => parseJsonPath("$" + ".a".repeat(300))).toThrow("longer than 512");
  });

  it("tells definite from indefinite paths", () => {
    expect(parseJsonPath("$.a[0]['b']").definite).toBe(true);
    expect(parseJsonPath("$.a[*]").definite).toBe(false);
    expect(parseJsonPath("$..a").definite).toBe(false);
    expect(parseJsonPath("$.a[0:1]").definite).toBe(false);
  });
});

describe("extractJsonPath", () => {
  const ex = (p: string) => extractJsonPath(parseJsonPath(p), doc);
  it("gives a definite path's value, or null when absent", () => {
    expect(ex("$.url")).toBe("https://x.test/a");
    expect(ex("$.content.headings")).toEqual(["A", "B", "C"]);
    expect(ex("$.content.headings[-1]")).toBe("C");
    expect(ex("$['og:title']")).toBe("T");
    expect(ex("$.missing.deeper")).toBeNull();
  });
  it("gives an array for wildcards, descent, slices and unions", () => {
    expect(ex("$.content.links[*].href")).toEqual(["/1", "/2"]);
    expect(ex("$..name")).toEqual(["deep", "in-array"]);
    expect(ex("$.content.headings[1:]")).toEqual(["B", "C"]);
    expect(ex("$.content.headings[0,2]")).toEqual(["A", "C"]);
    expect(ex("$.nothing[*]")).toEqual([]);
  });
  it("never reads inherited properties", () => {
    expect(ex("$.constructor")).toBeNull();
    expect(ex("$.url.length")).toBeNull();
    expect(extractJsonPath(parseJsonPath("$.__proto__"), {})).toBeNull();
  });
  it("walks a very deep document without overflowing the stack", () => {
    let deep: unknown = { name: "bottom" };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(evaluateJsonPath(parseJsonPath("$..name"), deep)).toEqual(["bottom"]);
  });
});

describe("agrees with jsonpath-plus (eval: false) on the shared subset", () => {
  it.each([
    "$.url",
    "$.content.headings[1]",
    "$.content.links[*].text",
    "$..name",
    "$.content.headings[0:2]",
    "$.content.links[0,1].href",
    "$.nested.*",
    "$..href",
  ])("%s", (p) => {
    const ours = evaluateJsonPath(parseJsonPath(p), doc);
    const theirs = JSONPath({ path: p, json: doc, eval: false, wrap: true }) as unknown[];
    expect(ours).toEqual(theirs);
  });
});
