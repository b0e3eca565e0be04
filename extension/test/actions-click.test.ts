import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { fails, ok, refIn, run, snapshot, pageCall, pageSet, pageVar, type LogEntry } from "./actions-helpers.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe("click, dblclick, hover, focus", () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.openFixture("actions-forms.html");
  });

  it("click dispatches the full pointer and mouse sequence and focuses", async () => {
    const text = await snapshot(h);
    const data = await ok(h, "click", { ref: refIn(text, 'button "Count"') });
    expect(data.clicked).toBe('button "Count"');
    const seq = (await pageVar<LogEntry[]>(page, "events")).filter((e) => e.type === "seq").map((e) => e.detail);
    expect(seq).toEqual(["pointerdown:0", "mousedown:1", "focus:0", "pointerup:0", "mouseup:1", "click:1"]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("counter");
  });

  it("dblclick sends two clicks then dblclick with detail 2", async () => {
    await pageSet(page, "events", []);
    await ok(h, "dblclick", { selector: { role: "button", name: "Count" } });
    const events = (await pageVar<LogEntry[]>(page, "events")).map((e) => `${e.type}:${e.detail}`);
    expect(events.filter((e: string) => !e.startsWith("seq"))).toEqual(["click:counter", "click:counter", "dblclick:counter"]);
    expect(events).toContain("seq:dblclick:2");
  });

  it("focus moves focus to the element", async () => {
    const text = await snapshot(h);
    await ok(h, "focus", { ref: refIn(text, 'textbox "Email"') });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
  });

  it("an unknown ref is stale_ref with advice, a malformed one invalid_params", async () => {
    expect(await fails(h, "click", { ref: "e99999" }, "stale_ref")).toMatch(/snapshot/);
    await fails(h, "click", { ref: "button-3" }, "invalid_params");
    await fails(h, "click", {}, "invalid_params");
    await fails(h, "click", { selector: { role: "button", name: "No such button" } }, "not_found");
  });
});

describe("covered, moving, disabled and replaced elements", () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.openFixture("actions-covered.html");
  });

  it("a covered button is not_actionable naming what covers it, and is not clicked", async () => {
    // The snapshot shows covered elements without a ref; a role selector still reaches them.
    expect(await snapshot(h)).toContain('button "Buy now" [covered]');
    const selector = { role: "button", name: "Buy now" };
    const message = await fails(h, "click", { selector, timeout_ms: 300 }, "not_actionable");
    expect(message).toContain('covered by <div id="modal" class="overlay">');
    expect(await pageVar(page, "clicks")).toEqual([]);
  });

  it("after the overlay is dismissed the button clicks", async () => {
    await ok(h, "click", { ref: refIn(await snapshot(h), 'button "Accept"') });
    await ok(h, "click", { ref: refIn(await snapshot(h), 'button "Buy now"') });
    expect(await pageVar(page, "clicks")).toEqual(["accept", "under"]);
  });

  it("a re-rendered element: the click lands on the one element in its place and says rebound, with its new ref", async () => {
    const text = await snapshot(h);
    const ref = refIn(text, 'button "Delete item"');
    await pageCall(page, "rerender");
    const result = await run(h, "click", { ref });
    expect(result).toMatchObject({ success: true, rebound: { ref: expect.stringMatching(/^e\d+$/) } });
    expect(result.rebound!.ref).not.toBe(ref);
    expect(await pageVar(page, "clicks")).toContain("swap-new");
    // The new element has its own, new ref: the one the result named.
    const again = await snapshot(h);
    expect(refIn(again, 'button "Delete item"')).toBe(result.rebound!.ref);
  });

  it("a re-render that leaves two look-alikes gives stale_ref with both as candidates, never a click on either", async () => {
    const text = await snapshot(h);
    const ref = refIn(text, 'button "Delete item"');
    await pageCall(page, "rerenderTwins");
    const result = await run(h, "click", { ref });
    expect(result).toMatchObject({ success: false, code: "stale_ref" });
    expect(result.candidates).toEqual([
      { ref: expect.stringMatching(/^e\d+$/), role: "button", name: "Delete item" },
      { ref: expect.stringMatching(/^e\d+$/), role: "button", name: "Delete item" },
    ]);
    expect(result.error).toContain(result.candidates![0]!.ref);
    expect((await pageVar<string[]>(page, "clicks")).filter((c) => c.startsWith("twin"))).toEqual([]);
    // A candidate's ref acts directly, without a new snapshot.
    await ok(h, "click", { ref: result.candidates![1]!.ref });
    expect((await pageVar<string[]>(page, "clicks")).filter((c) => c.startsWith("twin"))).toEqual(["twin-b"]);
  });

  it("waits for an element to stop moving and to become enabled", async () => {
    const text = await snapshot(h);
    await pageCall(page, "startMoving");
    await pageCall(page, "enableLater", 300);
    await ok(h, "click", { ref: refIn(text, 'button "Moving target"') });
    await ok(h, "click", { ref: refIn(text, 'button "Enabled later"') });
    expect((await pageVar<string[]>(page, "clicks")).slice(-2)).toEqual(["mover", "late"]);
  });

  it("a disabled element fails fast with the reason once the timeout passes", async () => {
    await page.evaluate(() => ((document.getElementById("late") as HTMLButtonElement).disabled = true));
    const text = await snapshot(h);
    expect(await fails(h, "click", { ref: refIn(text, "Enabled later"), timeout_ms: 200 }, "not_actionable")).toMatch(/disabled/);
  });
});

describe("hover", () => {
  it("opens a JS hover menu and leaves it when hovering elsewhere", async () => {
    const page = await h.openFixture("actions-hover.html");
    const text = await snapshot(h);
    expect(text).not.toContain("Laptops");
    await ok(h, "hover", { ref: refIn(text, 'button "Products"') });
    expect(await page.evaluate(() => document.getElementById("menu")!.className)).toBe("open");
    const opened = await snapshot(h);
    await ok(h, "click", { ref: refIn(opened, 'link "Laptops"') });
    expect(page.url()).toContain("#laptops");
    await ok(h, "hover", { selector: { role: "button", name: "Other" } });
    expect(await pageVar(page, "hovers")).toEqual(["enter", "leave"]);
  });
});
