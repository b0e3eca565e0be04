import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, refIn, snapshot, pageVar } from "./actions-helpers.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("scroll, extract, get, is", () => {
  let page: Page;
  let text: string;
  beforeAll(async () => {
    page = await h.openFixture("actions-collections.html");
    text = await snapshot(h);
  });
  const scrollY = () => page.evaluate(() => Math.round(window.scrollY));

  it("scrolls the page by a screen, by an amount, to the ends, and to a target", async () => {
    const down = await ok(h, "scroll", { direction: "down" });
    expect(down).toMatchObject({ scrolled: "page", moved: true });
    expect(await scrollY()).toBeGreaterThan(300);
    await ok(h, "scroll", { direction: "top" });
    expect(await scrollY()).toBe(0);
    await ok(h, "scroll", { direction: "down", amount: 250 });
    expect(await scrollY()).toBe(250);
    const bottom = await ok(h, "scroll", { direction: "bottom" });
    expect(bottom.at_end).toBe(true);
    await ok(h, "scroll", { direction: "top" });
    await ok(h, "scroll", { selector: { role: "button", name: "Load more" } });
    expect(await page.evaluate(() => {
      const r = document.getElementById("bottom-button")!.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    })).toBe(true);
  });

  it("scrolls a scrollable container, not the page", async () => {
    await ok(h, "scroll", { direction: "top" });
    const data = await ok(h, "scroll", { selector: { css: "#feed" }, direction: "down", amount: 100 });
    expect(data).toMatchObject({ container_y: 100, y: 0 });
  });

  it("clicking a target far below the fold scrolls it into view first", async () => {
    await ok(h, "scroll", { direction: "top" });
    await ok(h, "click", { selector: { role: "button", name: "Load more" } });
    expect(await pageVar(page, "bottomClicked")).toBe(true);
  });

  it("extracts cards as records with named fields", async () => {
    const cards = await ok<{ items: Record<string, string>[]; total: number }>(h, "extract", {
      selector: { css: ".results" },
      fields: ["title", "price", "url"],
    });
    expect(cards.total).toBe(3);
    expect(cards.items).toEqual([
      { title: "Red kettle", price: "$20", url: `${h.server.origin}/p/1` },
      { title: "Blue mug", price: "$8", url: `${h.server.origin}/p/2` },
      { title: "Green teapot", price: "$35", url: `${h.server.origin}/p/3` },
    ]);
  });

  it("extracts from a ref inside one item: the repeated ancestor is the collection", async () => {
    const byLink = await ok<{ items: Record<string, string>[] }>(h, "extract", { ref: refIn(text, 'link "Details"'), fields: ["title"] });
    expect(byLink.items.map((i) => i.title)).toEqual(["Red kettle", "Blue mug", "Green teapot"]);
    const byCell = await ok<{ items: Record<string, string>[] }>(h, "extract", { ref: refIn(text, 'link "Paid"') });
    expect(byCell.items.map((i) => i.Amount)).toEqual(["120.00", "95.50"]);
  });

  it("extracts table rows by column and list items as text, bounded by limit", async () => {
    const table = await ok<{ items: Record<string, string>[]; columns: string[] }>(h, "extract", { selector: { role: "table", name: "Invoices" } });
    expect(table.columns).toEqual(["Date", "Amount", "Status"]);
    expect(table.items[1]).toEqual({ Date: "2024-02-29", Amount: "95.50", Status: "Due", url: `${h.server.origin}/inv/2` });
    const list = await ok<{ items: { text: string }[]; total: number; truncated: boolean }>(h, "extract", { selector: { css: "#tags" }, limit: 2 });
    expect(list).toMatchObject({ items: [{ text: "alpha" }, { text: "beta" }], total: 4, truncated: true });
    await fails(h, "extract", {}, "invalid_params");
  });

  it("get returns title, url, bounded text and attributes", async () => {
    expect(await ok(h, "get", { what: "title" })).toEqual({ title: "Actions: collections and scrolling" });
    expect(await ok(h, "get", { what: "url" })).toEqual({ url: `${h.server.origin}/actions-collections.html` });
    const longText = await ok(h, "get", { selector: { css: "body" }, what: "text", max_chars: 20 });
    expect(longText).toMatchObject({ truncated: true });
    expect((longText.text as string).length).toBe(20);
    expect(await ok(h, "get", { selector: { css: "#feed" }, what: "attribute", name: "aria-label" })).toEqual({ name: "aria-label", value: "Feed" });
    await fails(h, "get", { selector: { css: "#feed" }, what: "attribute" }, "invalid_params");
    await fails(h, "get", { what: "colour" }, "invalid_params");
  });

  it("is answers visible, enabled, checked and editable", async () => {
    expect(await ok(h, "is", { selector: { css: "#bottom-button" }, state: "visible" })).toEqual({ state: "visible", value: true });
    expect(await ok(h, "is", { selector: { css: "#nothing-here" }, state: "visible" })).toEqual({ state: "visible", value: false });
    expect(await ok(h, "is", { selector: { css: "#bottom-button" }, state: "enabled" })).toMatchObject({ value: true });
    expect(await ok(h, "is", { selector: { css: "#bottom-button" }, state: "editable" })).toMatchObject({ value: false });
    await fails(h, "is", { selector: { css: "#bottom-button" }, state: "checked" }, "not_actionable");
    await fails(h, "is", { ref: "e424242", state: "visible" }, "stale_ref");
  });
});

describe("wait_for", () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.openFixture("actions-wait.html");
  });

  it("waits for a same-document URL change", async () => {
    await ok(h, "click", { selector: { role: "button", name: "Next step" } });
    const data = await ok(h, "wait_for", { until: { url: "step=2" }, timeout_ms: 5_000 });
    expect(data.url).toContain("?step=2");
  });

  it("waits for text and for a selector to appear", async () => {
    await ok(h, "click", { selector: { role: "button", name: "Load results" } });
    const data = await ok(h, "wait_for", { until: { text: "Results are ready" }, timeout_ms: 5_000 });
    expect(data.waited_ms).toBeGreaterThan(100);
    await ok(h, "wait_for", { until: { selector: { css: "#arrived" } }, timeout_ms: 1_000 });
  });

  it("waits for the network to go quiet", async () => {
    await ok(h, "click", { selector: { role: "button", name: "Fetch things" } });
    // The page fetches, pauses 300 ms, fetches again: the second request restarts the 500 ms quiet window.
    // What is checked is state, not how long the wait itself took (a busy machine can start it late):
    // when it answers, the second request has ended and most of a quiet window has passed since. The
    // page's clock is the machine's; the page notes the end a few ms after the network saw it.
    await ok(h, "wait_for", { until: { network_idle: true }, timeout_ms: 5_000 });
    const answeredAt = Date.now();
    expect(await pageVar(page, "fetchDone")).toBe(true);
    expect(answeredAt - Number(await pageVar(page, "fetchDoneAt"))).toBeGreaterThanOrEqual(450);
  });

  it("times out with a message naming what it waited for; pauses for a plain timeout", async () => {
    expect(await fails(h, "wait_for", { until: { text: "never shows up" }, timeout_ms: 300 }, "timeout")).toContain('text "never shows up"');
    expect(await ok(h, "wait_for", { timeout_ms: 150 })).toMatchObject({ condition: "timeout" });
    await fails(h, "wait_for", {}, "invalid_params");
    await fails(h, "wait_for", { until: { url: "/[/" } }, "invalid_params");
  });
});
