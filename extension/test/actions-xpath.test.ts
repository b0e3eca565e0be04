import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, pageVar, type LogEntry } from "./actions-helpers.ts";

// XPath as a target kind (`selector: {xpath}`): resolved by the page's own XPath engine, with the same rules as
// every selector (one visible match or an error listing them; nth picks), and refused before evaluation when
// its shape would search the whole page once per element (content/dom/xpath-check.ts).

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-forms.html");
});
afterAll(async () => {
  await h?.close();
});

describe("xpath targets", () => {
  it("click and fill by XPath act on the element it selects", async () => {
    expect(await ok(h, "click", { selector: { xpath: "//button[@id='counter']" } })).toMatchObject({ clicked: 'button "Count"' });
    expect((await pageVar<LogEntry[]>(page, "events")).some((e) => e.type === "click" && e.detail === "counter")).toBe(true);
    await ok(h, "fill", { selector: { xpath: "//form[@id='profile']/label[contains(., 'Email')]/input" }, value: "ada@example.com" });
    expect(await page.locator("#email").inputValue()).toBe("ada@example.com");
  });

  it("a text or attribute node stands for its element", async () => {
    expect(await ok(h, "get", { selector: { xpath: "//button[@id='counter']/text()" }, what: "text" })).toMatchObject({ text: "Count" });
    expect(await ok(h, "get", { selector: { xpath: "//input[@id='name']/@name" }, what: "attribute", name: "id" })).toMatchObject({ value: "name" });
  });

  it("a following step from a few elements runs: the field after a label", async () => {
    const after = await ok(h, "get", { selector: { xpath: "//label[contains(., 'Age')]/following::input[1]" }, what: "attribute", name: "id" });
    expect(after).toMatchObject({ value: "birthday" });
  });

  it("several matches: an error that lists them, and nth picks one", async () => {
    const message = await fails(h, "click", { selector: { xpath: "//form[@id='profile']//input[@type='checkbox']" } }, "invalid_params");
    expect(message).toMatch(/xpath "\/\/form\[@id='profile'\]\/\/input\[@type='checkbox'\]" matches 2 elements/);
    await ok(h, "click", { selector: { xpath: "//form[@id='profile']//input[@type='checkbox']", nth: 1 } });
    expect(await page.locator("#terms").isChecked()).toBe(true);
  });

  it("refused before it runs: a shape that searches the page once per element, or one that selects no nodes", async () => {
    expect(await fails(h, "click", { selector: { xpath: "//div[count(//a) > 0]" } }, "invalid_params")).toMatch(/XPath refused: .*whole page once per element/);
    expect(await fails(h, "click", { selector: { xpath: "//*/following::button" } }, "invalid_params")).toMatch(
      /XPath refused: "\/\/\*" selects \d+ elements, .* at most 20/,
    );
    expect(await fails(h, "click", { selector: { xpath: "count(//button)" } }, "invalid_params")).toMatch(/not an XPath that selects nodes/);
    expect(await fails(h, "click", { selector: { xpath: "//button[" } }, "invalid_params")).toMatch(/without its \]/);
    expect(await fails(h, "click", { selector: { xpath: "//nothing-here" } }, "not_found")).toMatch(/nothing matches xpath/);
  });

  it("wait_for waits for an element an XPath names", async () => {
    await page.evaluate(() => setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id='late'>Loaded</p>"), 200));
    await ok(h, "wait_for", { until: { selector: { xpath: "//p[@id='late']" } }, timeout_ms: 5_000 });
  });
});
