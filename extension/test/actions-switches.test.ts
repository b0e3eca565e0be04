import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, snapshot, pageVar } from "./actions-helpers.ts";

// Custom switches hide their input (opacity 0 and zero size, or the screen-reader-only clip) and draw a
// slider in a label; the name is in a `<label for>` beside it. The snapshot prints the control as a user
// (and Playwright) knows it, and clicking it clicks what the user would.

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("actions-switches.html");
});
afterAll(async () => {
  await h?.close();
});

const checked = (id: string) => page.evaluate((i) => (document.getElementById(i) as HTMLInputElement).checked, id);

describe("a switch whose input is hidden under its label", () => {
  it("is printed with its label's name and its checked state, and nothing of its slider", async () => {
    const text = await snapshot(h);
    expect(text).toMatch(/^- checkbox "Remember password" \[ref=e\d+\] \[checked\]$/m);
    expect(text).toMatch(/^- switch "Login alerts" \[ref=e\d+\]$/m);
    expect(text).toMatch(/^- checkbox "Dark mode" \[ref=e\d+\]$/m);
    expect(text).toContain("Stay signed in on this device for 30 days.");
    // No unnamed pointer boxes for the sliders: the control is what has the ref.
    expect(text).not.toMatch(/- generic \[ref=/);
  });

  it("clicking it clicks the slider, and check/uncheck reach the state they promise", async () => {
    await ok(h, "click", { ref: refIn(await snapshot(h), 'checkbox "Remember password"') });
    expect(await checked("rp")).toBe(false);
    const text = await snapshot(h);
    expect(text).toMatch(/^- checkbox "Remember password" \[ref=e\d+\]$/m);

    const data = await ok(h, "check", { ref: refIn(text, 'switch "Login alerts"') });
    expect(data).toMatchObject({ changed: true });
    expect(await checked("alerts")).toBe(true);
    expect(await snapshot(h)).toMatch(/^- switch "Login alerts" \[ref=e\d+\] \[checked\]$/m);

    await ok(h, "click", { selector: { role: "checkbox", name: "Dark mode" } });
    expect(await checked("dark")).toBe(true);
    expect(await pageVar(page, "changes")).toEqual(["rp:false", "alerts:true", "dark:true"]);
  });

  it("a screen-reader-only input whose box sits under other text is clicked through its label", async () => {
    const text = await snapshot(h);
    expect(text).toMatch(/^- checkbox "Sync over mobile data" \[ref=e\d+\]$/m);
    // Aimed at the input's own 1x1 box, the click would land on the row's text and fail as covered.
    await ok(h, "click", { ref: refIn(text, 'checkbox "Sync over mobile data"') });
    expect(await checked("sync")).toBe(true);
    expect(await snapshot(h)).toMatch(/^- checkbox "Sync over mobile data" \[ref=e\d+\] \[checked\]$/m);
  });
});
