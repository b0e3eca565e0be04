import fc from "fast-check";
import { JSONPath } from "jsonpath-plus";
import { afterEach, describe, expect, it } from "vitest";
import { createWorkBudget } from "../budget.ts";
import { jsonPathPlusEval } from "./json-path-filter.ts";
import { evaluatePlus, toPlusPath } from "./json-path-plus.ts";
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

const page = {
  url: "https://x.test/docs",
  limit: 10,
  content: {
    links: [
      { text: "Docs", href: "/docs", visible: true },
      { text: "Blog", href: "/blog", visible: false },
      { text: "Docs again", href: "/docs" },
    ],
    items: [
      { name: "pen", price: 2, tags: ["office"] },
      { name: "desk", price: 120, tags: [] },
      { name: "ink", price: 9.5, tags: ["office", "refill"] },
    ],
  },
  dom: { interactiveElements: { "0": { role: "button", name: "Go", visible: true }, "1": { role: "link", name: "Home" } } },
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
    "$.content.links[?(@.href == '/docs')].text",
    "$.content.items[?(@.price < 10)]",
    "$..[?(@.role == 'button' && @.visible)]",
    "$.a[?(@.name)]",
    "$.a[?(!(@.x > 1) || @['og:title'] != \"a)]\")]",
    "$.a[?(@.price <= $.limit)]",
    "$.a[ ?( @.b ) ]",
  ])("accepts %s", (p) => {
    expect(() => parseJsonPath(p)).not.toThrow();
  });

  it.each([
    ["", "must start with $"],
    ["url", "must start with $"],
    ["$.", "expected a name"],
    ["$..", "expected a name"],
    ["$[", "expected"],
    ["$..[?(@.constructor)]", '"constructor" is not allowed'],
    ["$[(@.length-1)]", "script expressions"],
    ["$.a[?@.b]", "expected ("],
    ["$.a[?(@.b)", "expected ]"],
    ["$.a[?(@.b]", "unterminated filter"],
    ["$.a[?()]", "empty expression"],
    ["$.a[0,?(@.b)]", "not part of a union"],
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
    expect(parseJsonPath("$.a[?(@.b)]").definite).toBe(false);
  });
});

describe("hostile filters are rejected when the path is written", () => {
  it.each([
    ["$..[?(@.constructor.constructor('return process')())]", '"constructor" is not allowed'],
    ["$[?(this.x)]", 'starts with @ (the current item) or $ (the root), not "this"'],
    ["$[?(@.a = 1)]", "assignment is not allowed"],
    ["$[?(process.exit())]", 'not "process"'],
    ["$[?(@.a())]", "function calls are not allowed"],
    ["$[?(@.__proto__)]", '"__proto__" is not allowed'],
    ["$[?(@['__proto__'].x)]", '"__proto__" is not allowed'],
    ["$[?(@.a; @.b)]", "`;` is not allowed"],
    ["$[?(`${@.a}`)]", "template strings are not allowed"],
    ["$[?((x) => 1)]", "functions are not allowed"],
    ["$[?(@.a + 1)]", "unexpected character"],
    ["$[?(@path == 1)]", "unexpected path"],
    ["$[?(@.a == @.b ? 1 : 2)]", "unexpected character"],
    ["$[?(globalThis.crumbsPwned == true)]", 'not "globalThis"'],
  ])("%s", (p, why) => {
    expect(() => parseJsonPath(p)).toThrow(JsonPathSyntaxError);
    expect(() => parseJsonPath(p)).toThrow(why);
  });
});

describe("filters", () => {
  const ex = (p: string) => extractJsonPath(parseJsonPath(p), page);
  it("select the items whose expression holds, as an array", () => {
    expect(ex("$.content.links[?(@.href == '/docs')].text")).toEqual(["Docs", "Docs again"]);
    expect(ex("$.content.links[?(@.href == '/nowhere')].text")).toEqual([]);
    expect(ex("$.content.items[?(@.price < 10)].name")).toEqual(["pen", "ink"]);
    expect(ex("$.content.items[?(@.price >= 10 || @.name == 'ink')].name")).toEqual(["desk", "ink"]);
    expect(ex("$.content.items[?(@.price < $.limit)].name")).toEqual(["pen", "ink"]);
  });
  it("test truthiness like the expression language: missing, false and [] fail", () => {
    expect(ex("$.content.links[?(@.visible)].text")).toEqual(["Docs"]);
    expect(ex("$.content.links[?(!@.visible)].text")).toEqual(["Blog", "Docs again"]);
    expect(ex("$.content.items[?(@.tags)].name")).toEqual(["pen", "ink"]);
    expect(ex("$.content.items[?(@.tags.length > 1)].name")).toEqual(["ink"]);
  });
  it("walk the values of an object and combine with ..", () => {
    expect(ex("$.dom.interactiveElements[?(@.role == 'button' && @.visible)].name")).toEqual(["Go"]);
    expect(ex("$..[?(@.href == '/blog')].text")).toEqual(["Blog"]);
    expect(ex("$..[?(@ == 'office')]")).toEqual(["office", "office"]);
  });
  it("keep string literals holding JSONPath syntax intact", () => {
    const doc = { a: [{ s: "x)]'.y" }, { s: "z" }] };
    expect(extractJsonPath(parseJsonPath(`$.a[?(@.s == "x)]'.y")].s`), doc)).toEqual(["x)]'.y"]);
  });
});

describe("no script is ever run", () => {
  const g = globalThis as { crumbsPwned?: unknown };
  afterEach(() => {
    delete g.crumbsPwned;
  });
  it("hostile paths and names leave a global flag unset", () => {
    const hostile = [
      "$[?(globalThis.crumbsPwned = true)]",
      "$..[?(@.constructor.constructor('globalThis.crumbsPwned = 1')())]",
      "$[(globalThis.crumbsPwned = 1)]",
    ];
    for (const p of hostile) expect(() => parseJsonPath(p)).toThrow(JsonPathSyntaxError);
    // Names spelling script are plain keys: read as data, never run.
    const doc = { "?(globalThis.crumbsPwned=1)": "a", "(globalThis.crumbsPwned=1)": "b", k: [{ x: 1 }] };
    expect(extractJsonPath(parseJsonPath("$['?(globalThis.crumbsPwned=1)']"), doc)).toBe("a");
    expect(extractJsonPath(parseJsonPath("$['(globalThis.crumbsPwned=1)']"), doc)).toBe("b");
    expect(extractJsonPath(parseJsonPath("$..[?(@.x == 1)]"), doc)).toEqual([{ x: 1 }]);
    expect(g.crumbsPwned).toBeUndefined();
  });
  it("the jsonpath-plus eval hook refuses code this library did not write", () => {
    expect(() => jsonPathPlusEval("globalThis.crumbsPwned = 1", { _$_v: {}, _$_root: {} })).toThrow("did not write");
    expect(() => JSONPath({ path: "$[?(globalThis.crumbsPwned = 1)]", json: { a: 1 }, eval: jsonPathPlusEval as never })).toThrow();
    expect(g.crumbsPwned).toBeUndefined();
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
  it("never reads inherited properties, nor inside strings", () => {
    expect(ex("$.constructor")).toBeNull();
    expect(ex("$.url.length")).toBeNull();
    expect(ex("$.url[0]")).toBeNull();
    expect(ex("$.content.headings[*].length")).toEqual([]);
    expect(extractJsonPath(parseJsonPath("$.__proto__"), {})).toBeNull();
    expect(extractJsonPath(parseJsonPath("$.__proto__"), JSON.parse('{"__proto__": 1}'))).toBe(1);
    expect(extractJsonPath(parseJsonPath("$..constructor"), { a: [{}] })).toEqual([]);
  });
  it("indexes only arrays; an object's key \"0\" is a quoted name", () => {
    expect(extractJsonPath(parseJsonPath("$.dom.interactiveElements[0]"), page)).toBeNull();
    expect(extractJsonPath(parseJsonPath("$.dom.interactiveElements['0'].name"), page)).toBe("Go");
    expect(extractJsonPath(parseJsonPath("$.dom.interactiveElements[-1]"), page)).toBeNull();
  });
  it("answers for scalar and null documents", () => {
    expect(evaluateJsonPath(parseJsonPath("$"), null)).toEqual([null]);
    expect(evaluateJsonPath(parseJsonPath("$"), 0)).toEqual([0]);
    expect(evaluateJsonPath(parseJsonPath("$.a"), "abc")).toEqual([]);
  });
  it("walks a very deep document without overflowing the stack", () => {
    let deep: unknown = { name: "bottom" };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    // 100k levels are more work than one default evaluation budget allows.
    const roomy = createWorkBudget({ units: 5_000_000 });
    expect(evaluateJsonPath(parseJsonPath("$..name"), deep, roomy)).toEqual(["bottom"]);
    expect(evaluateJsonPath(parseJsonPath("$..[?(@.name == 'bottom')]"), deep, roomy)).toEqual([{ name: "bottom" }]);
    // Two equal subtrees too deep to compare: the item does not pass, nothing throws.
    const copy = (): unknown => {
      let d: unknown = { name: "bottom" };
      for (let i = 0; i < 100_000; i++) d = { next: d };
      return d;
    };
    expect(evaluateJsonPath(parseJsonPath("$[?(@.a == @.b)]"), [{ a: copy(), b: copy() }]).length).toBe(0);
  });
});

describe("the jsonpath-plus spelling (the reference these tests compare with)", () => {
  it("exists for every path whose names pass its tokenizer", () => {
    for (const p of ["$", "$.url", "$['og:title']", "$..[0]", "$.a[-2]", "$.a[1:-1:2]", "$['a','b']", "$.a[?(@.b)]"]) {
      expect(toPlusPath(parseJsonPath(p).steps), p).toBeDefined();
    }
    for (const p of ["$['a;b']", "$['a^']", "$['#0']", "$['*']", "$['..']", "$['1:2']", "$[0,'a']", "$[0,1]", "$['']"]) {
      expect(toPlusPath(parseJsonPath(p).steps), p).toBeUndefined();
    }
  });
  it("names holding its syntax evaluate", () => {
    const doc = { "a;b": 1, "a^": 2, "#0": 3, "*": 4, "..": 5, "1:2": 6, "": 7, x: { y: 8 } };
    expect(extractJsonPath(parseJsonPath("$['a;b']"), doc)).toBe(1);
    expect(extractJsonPath(parseJsonPath("$['a^']"), doc)).toBe(2);
    expect(extractJsonPath(parseJsonPath("$['#0']"), doc)).toBe(3);
    expect(extractJsonPath(parseJsonPath("$['*']"), doc)).toBe(4);
    expect(extractJsonPath(parseJsonPath("$['..']"), doc)).toBe(5);
    expect(extractJsonPath(parseJsonPath("$['1:2']"), doc)).toBe(6);
    expect(extractJsonPath(parseJsonPath("$['']"), doc)).toBe(7);
  });

  const paths = [
    "$",
    "$.url",
    "$.content.headings[1]",
    "$.content.headings[-1]",
    "$.content.headings[-9]",
    "$.content.links[*].text",
    "$..name",
    "$..*",
    "$..[0]",
    "$..[*]",
    "$.content.headings[0:2]",
    "$.content.headings[::2]",
    "$.content.headings[-2:]",
    "$.content['links','headings']",
    "$.nested.*",
    "$..href",
    "$['og:title']",
    "$.missing[*]",
    "$.url.length",
    "$.content.headings[0].length",
    "$..length",
    "$.content.links[?(@.href == '/2')].text",
    "$..[?(@.name)]",
    "$..[?(@ == 'B')]",
    "$.content.links[?(@.text != $.url)]",
  ];
  it.each(paths)("the bounded own walker agrees with jsonpath-plus: %s", (p) => {
    const path = parseJsonPath(p);
    expect(toPlusPath(path.steps)).toBeDefined();
    expect(evaluateJsonPath(path, doc)).toEqual(evaluatePlus(path, doc));
  });

  it("the bounded own walker agrees with jsonpath-plus on generated paths and documents", () => {
    const key = fc.constantFrom("a", "b", "0", "1", "length", "x-y", "og:title", "a.b", "c~d", "$x", "név");
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(null, true, 0, 1, 2, "a", "B", ""),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    const filterBody = fc.constantFrom("@.a", "!@.a", "@.a == 1", "@ == 'a'", "@.b > 0 && @.a", "@.length > 1", "@['x-y'] || @[0]", "$.a == @.a");
    const step = fc.oneof(
      key.map((k) => `['${k}']`),
      fc.constantFrom(".a", ".b", "[0]", "[1]", "[-1]", "[*]", ".*", "..a", "..*", "..[0]", "[1:]", "[::2]", "[-2:]", "['0','1']", "['a','b']"),
      filterBody.map((f) => `[?(${f})]`),
    );
    const pathArb = fc.array(step, { maxLength: 4 }).map((steps) => "$" + steps.join(""));
    fc.assert(
      fc.property(pathArb, json, (p, d) => {
        const path = parseJsonPath(p);
        expect(toPlusPath(path.steps), p).toBeDefined();
        expect(evaluateJsonPath(path, d)).toEqual(evaluatePlus(path, d));
      }),
      { numRuns: 1500 },
    );
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
