import { describe, expect, it } from "vitest";
import { HintCompileError } from "./hint-compile-error.ts";
import { clearTemplateCache, compileTemplate, templateCacheStats } from "./template-engine.ts";

const data = {
  context: {
    title: "A <b>bold</b> & fast page",
    items: ["x", "y", "z"],
    links: [{ text: "one" }, { text: "two" }],
    dom: { interactiveElements: { "0": {}, "1": {} } },
    empty: "",
  },
  tags: ["t1", "t2"],
  title: "T",
};
const render = (t: string) => compileTemplate(t)(data);

describe("templates", () => {
  it("render without HTML escaping", () => {
    expect(render("{{context.title}}")).toBe("A <b>bold</b> & fast page");
  });
  it("count keys of a plain object with .length, and items of arrays", () => {
    expect(render("{{context.dom.interactiveElements.length}}")).toBe("2");
    expect(render("{{context.items.length}}")).toBe("3");
    expect(render("{{#if context.items.length}}yes{{/if}}")).toBe("yes");
    expect(render("{{#each context.links}}{{this.text.length}} {{/each}}")).toBe("3 3 ");
  });
  it("helpers json, join, truncate, count, default", () => {
    expect(render("{{json context.items}}")).toBe('["x","y","z"]');
    expect(render("{{json context.links 2}}")).toContain('\n  {\n    "text": "one"');
    expect(render("{{join context.items}}")).toBe("x, y, z");
    expect(render('{{join tags " | "}}')).toBe("t1 | t2");
    expect(render("{{truncate context.title 6}}")).toBe("A <b>…");
    expect(render("{{count context.links}} {{count context.dom.interactiveElements}} {{count context.missing}}")).toBe("2 2 0");
    expect(render('{{default context.empty "none"}} {{default context.missing "none"}} {{default title "x"}}')).toBe("none none T");
  });
  it("missing values render empty (not strict)", () => {
    expect(render("[{{context.nope.deeper}}]")).toBe("[]");
  });
  it.each([
    ['{{constructor.constructor "return process"}}', "constructor"],
    ["{{#with __proto__}}{{polluted}}{{/with}}", "__proto__"],
    ['{{lookup this "constructor"}}', "constructor"],
    ["{{context.__defineGetter__}}", "__defineGetter__"],
    ['{{#with "x"}}{{valueOf}}{{/with}}', "valueOf"],
    ["{{> partial}}", "not allowed"],
    ["{{#*inline \"p\"}}x{{/inline}}", "not allowed"],
    ["{{log context}}", "unknown helper"],
    ["{{exec 'rm -rf'}}", "unknown helper"],
    ["{{#unclosed}}", "template"],
  ])("rejects %s", (t, why) => {
    expect(() => compileTemplate(t)).toThrow(HintCompileError);
    expect(() => compileTemplate(t)).toThrow(why);
  });
  it("a lookup reaching a prototype at run time yields nothing", () => {
    const out = compileTemplate("{{lookup context key}}|{{#each context}}{{@key}}{{/each}}")({ context: { a: 1 }, key: "constructor" });
    expect(out).toBe("|a");
  });
  it("deep nesting is a typed error", () => {
    expect(() => compileTemplate("{{#if a}}".repeat(3000) + "x" + "{{/if}}".repeat(3000))).toThrow(HintCompileError);
  });
  it("caches compiled templates by their text", () => {
    clearTemplateCache();
    const t = "cache {{context.title}}";
    const first = compileTemplate(t);
    const before = templateCacheStats();
    expect(compileTemplate(t)).toBe(first);
    const after = templateCacheStats();
    expect(after.hits).toBe(before.hits + 1);
    expect(after.size).toBe(1);
  });
});
