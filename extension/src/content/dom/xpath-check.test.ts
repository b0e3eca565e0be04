import { describe, expect, it } from "vitest";
import { checkXPath, MAX_XPATH_LENGTH } from "./xpath-check.ts";

const refused = (expr: string) => {
  const r = checkXPath(expr);
  return r.ok ? "" : r.reason;
};

describe("checkXPath: the shapes a page evaluates in bounded time", () => {
  it.each([
    "/html/body/form/button",
    "//button[@type='submit']",
    "//nav/a[2]",
    "//tr[td[1]='INV-2]03']/td/a",
    "//a[contains(@href, '/invoices//2024')]",
    "(//button)[last()]",
    "//div[@class='row' and @data-id='7']//a",
    "//li[a/span='Billing']",
    "//input[../label='Name']",
    "//tr[.//a[@href='/x']]",
    "//input[ancestor::form[@id='login']]",
  ])("accepts %s", (expr) => {
    expect(checkXPath(expr)).toMatchObject({ ok: true, wideSteps: [] });
  });

  it("refuses a path from the root, or the rest of the document, inside a predicate (elements x elements), saying why", () => {
    expect(refused("//div[count(//a) > 3]")).toMatch(/searches the whole page once per element: start it with \./);
    expect(refused("//*[//*]")).toMatch(/whole page once per element/);
    expect(refused("//div[/html/body]")).toMatch(/whole page once per element/);
    expect(refused("//a[@x = /html/@y]")).toMatch(/whole page once per element/);
    expect(refused("//tr[following::tr]")).toMatch(/scans the rest of the page once per element/);
    expect(refused("//td[preceding :: td = 'x']")).toMatch(/rest of the page/);
    expect(refused("//li[preceding-sibling::li]")).toMatch(/siblings too/);
  });

  it("marks top-level following and preceding steps, whose context the page counts first", () => {
    const expr = "//label[text()='Email']/following::input[1]";
    const r = checkXPath(expr);
    expect(r).toMatchObject({ ok: true });
    const at = r.ok ? r.wideSteps : [];
    expect(at.map((i) => expr.slice(0, i))).toEqual(["//label[text()='Email']"]);
    expect(checkXPath("//li/following-sibling::li/preceding::a")).toMatchObject({ ok: true, wideSteps: [4, 26] });
    expect(refused("(//li/following::a)[1]")).toMatch(/inside \(\.\.\.\) cannot be bounded/);
  });

  it("refuses what is too long, too deep or malformed", () => {
    expect(refused("a".repeat(MAX_XPATH_LENGTH + 1))).toMatch(/longer than 1000/);
    expect(refused("/a".repeat(25))).toMatch(/more than 24 steps/);
    expect(refused("//a[b[c[d[e]]]]")).toMatch(/nest deeper than 3/);
    expect(refused("//a[@x='1'")).toMatch(/without its ]/);
    expect(refused("//a]")).toMatch(/without its \[/);
    expect(refused("//a[@x='1]")).toMatch(/unclosed string/);
    expect(refused("  ")).toMatch(/empty/);
  });
});
