import { describe, expect, it } from "vitest";
import { InvalidSelectorError } from "../contract/errors.ts";
import { compileSelector, parseSelectorParam, type SelectorTarget } from "./selector-compile.ts";

const page: SelectorTarget = {
  schema_name: "browser.page.context.v1",
  tags: ["browser:context", "browser:active-tab", "url:github.com"],
  context: {
    url: "https://github.com/rcrt/docs",
    count: 5,
    price: 9.5,
    at: "2025-01-15T10:30:00Z",
    flag: false,
    nothing: null,
    labels: ["docs", "beta"],
    content: { headings: ["Intro", "Architecture"], links: [{ href: "/a" }, { href: "/b" }] },
    obj: { a: 1, b: [1, 2] },
  },
};

const m = (selector: unknown, target: SelectorTarget = page) => compileSelector(selector).matches(target);
const cm = (path: string, op: string, value?: unknown) => m({ context_match: [{ path, op, ...(value === undefined ? {} : { value }) }] });

describe("clauses", () => {
  it("an empty selector matches everything", () => {
    expect(m({})).toBe(true);
  });
  it("schema_name: one name or any of a list", () => {
    expect(m({ schema_name: "browser.page.context.v1" })).toBe(true);
    expect(m({ schema_name: "chat.message.v1" })).toBe(false);
    expect(m({ schema_name: ["chat.message.v1", "browser.page.context.v1"] })).toBe(true);
  });
  it("any_tags, all_tags, none_tags", () => {
    expect(m({ any_tags: ["nope", "browser:active-tab"] })).toBe(true);
    expect(m({ any_tags: ["nope"] })).toBe(false);
    expect(m({ all_tags: ["browser:context", "url:github.com"] })).toBe(true);
    expect(m({ all_tags: ["browser:context", "nope"] })).toBe(false);
    expect(m({ all_tags: [] })).toBe(true);
    expect(m({ none_tags: ["nope"] })).toBe(true);
    expect(m({ none_tags: ["url:github.com"] })).toBe(false);
  });
  it("every present clause must hold", () => {
    expect(m({ schema_name: "browser.page.context.v1", any_tags: ["nope"] })).toBe(false);
    expect(m({ schema_name: "browser.page.context.v1", context_match: [{ path: "$.count", op: "eq", value: 5 }, { path: "$.count", op: "gt", value: 9 }] })).toBe(false);
  });
});

describe("ops", () => {
  it("eq / ne with deep equality", () => {
    expect(cm("$.url", "eq", "https://github.com/rcrt/docs")).toBe(true);
    expect(cm("$.obj", "eq", { b: [1, 2], a: 1 })).toBe(true);
    expect(cm("$.obj", "eq", { a: 1 })).toBe(false);
    expect(cm("$.nothing", "eq", null)).toBe(true);
    expect(cm("$.count", "eq", "5")).toBe(false);
    expect(cm("$.count", "ne", 4)).toBe(true);
    expect(cm("$.count", "ne", 5)).toBe(false);
    expect(cm("$.missing", "ne", 5)).toBe(true);
  });
  it("in / nin", () => {
    expect(cm("$.count", "in", [1, 5])).toBe(true);
    expect(cm("$.count", "in", ["5"])).toBe(false);
    expect(cm("$.obj.b", "in", [[1, 2]])).toBe(true);
    expect(cm("$.count", "nin", [1, 2])).toBe(true);
    expect(cm("$.count", "nin", [5])).toBe(false);
    expect(cm("$.missing", "nin", [5])).toBe(true);
    expect(cm("$.missing", "in", [null])).toBe(false);
  });
  it("contains: substring of a string, member of an array", () => {
    expect(cm("$.url", "contains", "github.com")).toBe(true);
    expect(cm("$.url", "contains", "gitlab")).toBe(false);
    expect(cm("$.labels", "contains", "beta")).toBe(true);
    expect(cm("$.labels", "contains", "alpha")).toBe(false);
    expect(cm("$.count", "contains", 5)).toBe(false);
  });
  it("contains_any / contains_all", () => {
    expect(cm("$.labels", "contains_any", ["x", "docs"])).toBe(true);
    expect(cm("$.labels", "contains_any", ["x", "y"])).toBe(false);
    expect(cm("$.labels", "contains_all", ["docs", "beta"])).toBe(true);
    expect(cm("$.labels", "contains_all", ["docs", "x"])).toBe(false);
    expect(cm("$.url", "contains_any", ["nope", "rcrt"])).toBe(true);
  });
  it("exists, with null counting as present", () => {
    expect(cm("$.url", "exists")).toBe(true);
    expect(cm("$.nothing", "exists")).toBe(true);
    expect(cm("$.missing", "exists")).toBe(false);
    expect(cm("$.missing", "exists", false)).toBe(true);
    expect(cm("$.url", "exists", false)).toBe(false);
    expect(cm("$.flag", "exists", true)).toBe(true);
  });
  it("gt gte lt lte on numbers and on strings, never across types", () => {
    expect(cm("$.count", "gt", 4)).toBe(true);
    expect(cm("$.count", "gt", 5)).toBe(false);
    expect(cm("$.count", "gte", 5)).toBe(true);
    expect(cm("$.price", "lt", 10)).toBe(true);
    expect(cm("$.price", "lte", 9.5)).toBe(true);
    expect(cm("$.price", "lte", 9.4)).toBe(false);
    expect(cm("$.at", "gte", "2025-01-01T00:00:00Z")).toBe(true);
    expect(cm("$.at", "lt", "2025-01-01T00:00:00Z")).toBe(false);
    expect(cm("$.count", "gt", "1")).toBe(false);
    expect(cm("$.missing", "lt", 100)).toBe(false);
  });
  it("matches with a pattern or {pattern, flags}", () => {
    expect(cm("$.url", "matches", "^https://github\\.com/")).toBe(true);
    expect(cm("$.url", "matches", "^http://")).toBe(false);
    expect(cm("$.url", "matches", { pattern: "GITHUB", flags: "i" })).toBe(true);
    expect(cm("$.count", "matches", "5")).toBe(false);
  });
  it("a path with several values: any value for positive ops, none for negative ones", () => {
    expect(cm("$.content.headings[*]", "eq", "Architecture")).toBe(true);
    expect(cm("$.content.links[*].href", "in", ["/b", "/z"])).toBe(true);
    expect(cm("$.content.links[*].href", "ne", "/a")).toBe(false);
    expect(cm("$.content.links[*].href", "nin", ["/x"])).toBe(true);
    expect(cm("$..href", "matches", "^/b$")).toBe(true);
    expect(cm("$.content.links[*].nope", "exists")).toBe(false);
    expect(cm("$.content.links[*].href", "exists")).toBe(true);
  });
  it("filters narrow a path to the items whose expression holds", () => {
    expect(cm("$.content.links[?(@.href == '/b')].href", "eq", "/b")).toBe(true);
    expect(cm("$.content.links[?(@.href == '/b')].href", "eq", "/a")).toBe(false);
    expect(cm("$.content.links[?(@.href == '/z')]", "exists")).toBe(false);
    expect(cm("$.content.links[?(@.href != '/a')]", "exists")).toBe(true);
    expect(cm("$[?(@ == 9.5)]", "exists")).toBe(true);
    expect(cm("$.labels[?(@ == 'beta' && $.count > 3)]", "eq", "beta")).toBe(true);
    expect(cm("$.labels[?(@ == 'beta' && $.count > 30)]", "exists")).toBe(false);
  });
});

describe("invalid selectors are rejected, never silently true", () => {
  const bad = (selector: unknown, why: string | RegExp) => {
    expect(() => compileSelector(selector)).toThrow(InvalidSelectorError);
    expect(() => compileSelector(selector)).toThrow(why);
  };
  it.each([
    [{ context_match: [{ path: "$.a", op: "like", value: 1 }] }, /op/],
    [{ context_match: [{ path: "url", op: "eq", value: 1 }] }, "must start with $"],
    [{ context_match: [{ path: "$.a[(@.length-1)]", op: "exists" }] }, "script expressions"],
    [{ context_match: [{ path: "$..[?(@.constructor.constructor('return process')())]", op: "exists" }] }, '"constructor" is not allowed'],
    [{ context_match: [{ path: "$[?(this.x)]", op: "exists" }] }, 'not "this"'],
    [{ context_match: [{ path: "$[?(@.a = 1)]", op: "exists" }] }, "assignment is not allowed"],
    [{ context_match: [{ path: "$[?(process.exit())]", op: "exists" }] }, 'not "process"'],
    [{ context_match: [{ path: "$.a", op: "eq" }] }, "needs a value"],
    [{ context_match: [{ path: "$.a", op: "in", value: 3 }] }, "needs an array"],
    [{ context_match: [{ path: "$.a", op: "contains_any", value: [] }] }, "at least one"],
    [{ context_match: [{ path: "$.a", op: "gt", value: true }] }, "number or a string"],
    [{ context_match: [{ path: "$.a", op: "gt", value: Number.NaN }] }, "number or a string"],
    [{ context_match: [{ path: "$.a", op: "exists", value: "yes" }] }, "boolean"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "(" }] }, "missing closing )"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "(a)\\1" }] }, "backreferences"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "(?<n>a)\\k<n>" }] }, "backreferences"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "a(?=b)" }] }, "lookahead and lookbehind"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "(?<!a)b" }] }, "lookahead and lookbehind"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "\\u00e9" }] }, "\\x{XXXX}"],
    [{ context_match: [{ path: "$.a", op: "matches", value: "a".repeat(513) }] }, "longer than 512"],
    [{ context_match: [{ path: "$.a", op: "matches", value: { pattern: "a", flags: "g" } }] }, "flags"],
    [{ context_match: [{ path: "$.a", op: "matches", value: 5 }] }, "pattern"],
    [{ schema_name: "Not A Schema" }, "schema_name"],
    [{ tags: ["x"] }, /unrecognized|tags/i],
    [{ any_tags: [] }, "any_tags"],
    [{ any_tags: ["has space"] }, "whitespace"],
    [null, /invalid selector/],
    [[], /invalid selector/],
  ])("%j", (selector, why) => bad(selector, why));

  it("names the clause in the details", () => {
    try {
      compileSelector({ context_match: [{ path: "$.ok", op: "exists" }, { path: "$.a", op: "in", value: 1 }] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidSelectorError);
      expect((e as InvalidSelectorError).status).toBe(422);
      expect((e as InvalidSelectorError).code).toBe("invalid_selector");
      expect((e as InvalidSelectorError).details).toEqual({
        issues: [{ path: ["context_match", 1], code: "invalid_condition", message: expect.stringMatching(/in/) }],
      });
    }
  });

  it("refuses operands nested too deeply", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100; i++) v = [v];
    expect(() => compileSelector({ context_match: [{ path: "$.a", op: "eq", value: v }] })).toThrow("nested deeper");
  });
});

describe("parseSelectorParam", () => {
  it("absent or empty matches everything", () => {
    expect(parseSelectorParam(undefined).matches(page)).toBe(true);
    expect(parseSelectorParam("").matches(page)).toBe(true);
  });
  it("parses JSON", () => {
    expect(parseSelectorParam('{"any_tags":["url:github.com"]}').matches(page)).toBe(true);
  });
  it("bad JSON is an invalid selector", () => {
    expect(() => parseSelectorParam("{nope")).toThrow(InvalidSelectorError);
  });
});
