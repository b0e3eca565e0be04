import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, snapshot, pageVar } from "./actions-helpers.ts";

// Controls that are transparent until their row is hovered (or focus is in their box) are listed with
// that state, hover moves the browser's real pointer (chrome.debugger) so CSS :hover applies, and a click
// on such a control hovers it first, as a user's mouse on its way does.

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-hover-reveal.html");
});
afterAll(async () => {
  await h?.close();
});

const opacity = (selector: string) => page.evaluate((s) => getComputedStyle(document.querySelector(s)!).opacity, selector);

describe("controls shown on hover or focus", () => {
  it("are listed with their state; a control transparent for good is not", async () => {
    const text = await snapshot(h);
    expect(text.match(/- button "Edit" \[ref=e\d+\] \[shown on hover\]/g)).toHaveLength(2);
    expect(text.match(/- button "Disconnect" \[ref=e\d+\] \[shown on hover\]/g)).toHaveLength(2);
    expect(text).toMatch(/- button "Clear" \[ref=e\d+\] \[shown on focus\]/);
    expect(text).not.toContain("Faded away");
  });

  it("hover moves the real pointer: the row is in :hover and its button is shown", async () => {
    const text = await snapshot(h);
    const data = await ok(h, "hover", { ref: refIn(text, 'button "Edit"') });
    expect(data).toMatchObject({ hovered: 'button "Edit"', pointer: "real" });
    expect(await page.evaluate(() => document.getElementById("row-email")!.matches(":hover"))).toBe(true);
    await page.waitForFunction(() => getComputedStyle(document.getElementById("edit-email")!).opacity === "1");
    expect(await opacity("#edit-phone")).toBe("0");
    // The snapshot now sees the email's Edit as a plain button; the phone's is still shown on hover only.
    const after = await snapshot(h);
    expect(after).toMatch(/- button "Edit" \[ref=e\d+\]\n/);
    expect(after.match(/\[shown on hover\]/g)).toHaveLength(3);
  });

  it("a click on a hover-only button hovers its row first and lands on the shown button", async () => {
    const text = await snapshot(h);
    const drive = text.split("\n").findIndex((l) => l.includes("text: Drive"));
    const ref = refIn(text.split("\n").slice(drive).join("\n"), 'button "Disconnect"');
    await ok(h, "click", { ref });
    expect(await pageVar(page, "log")).toEqual(["Drive:Disconnect:1"]);
    expect(await page.evaluate(() => document.querySelectorAll("li")[1]!.matches(":hover"))).toBe(true);
  });
});
