import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, pageVar } from "./actions-helpers.ts";

// Apps fixed to the window scroll in panes: what is below a pane's fold is read (or said to be there,
// with the ref that scrolls it), coverage is judged where a click would land, and an action scrolls its
// target into view within its pane before asking what is over it.

interface Snap {
  text: string;
  truncated: boolean;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const snap = (params: Record<string, unknown> = {}) => ok<Snap>(h, "snapshot", params);

describe("a mail client whose page does not scroll and whose panes do", () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.openFixture("snap-panes.html");
  });

  it("reads every pane in full within the budget, also below an overflow-x: hidden pane's fold", async () => {
    const s = await snap();
    expect(s.truncated).toBe(false);
    // 48 inbox rows, 40 labels, and the settings pane's last section (its box has overflow-x: hidden).
    expect(s.text).toContain("Sender 48 Subject line 48");
    expect(s.text).toMatch(/- link "Label 40" \[ref=e\d+\]/);
    expect(s.text).toMatch(/- button "Turn on vacation responder" \[ref=e\d+\]/);
    expect(s.text).not.toContain("- note:");
  });

  it("says how much of a pane the budget cut and which ref scrolls it; that ref scrolls the pane", async () => {
    const s = await snap({ max_tokens: 600 });
    expect(s.truncated).toBe(true);
    expect(s.text.split("\n").at(-1)).toMatch(/^- note: cut to fit 600 tokens: \d+ lines left out/);
    const inbox = refIn(s.text, /^- main \[ref=/);
    const note = s.text.match(new RegExp(`\\((\\d+) more items below: scroll ${inbox}\\)`));
    expect(note, s.text).not.toBeNull();
    const shown = (s.text.match(/- listitem \[ref=e\d+\]: Sender/g) ?? []).length;
    expect(shown + Number(note![1])).toBe(48);
    expect(s.text).not.toContain("Sender 48 ");

    const scrolled = await ok<{ moved: boolean }>(h, "scroll", { ref: inbox, direction: "bottom" });
    expect(scrolled.moved).toBe(true);
    expect(await page.evaluate(() => document.getElementById("inbox")!.scrollTop)).toBeGreaterThan(0);
    const after = await snap({ max_tokens: 600 });
    // The rows now in the pane's view are the ones kept; the first ones are above.
    expect(after.text).toContain("Sender 40 Subject line 40");
    expect(after.text).not.toContain("Sender 1 Subject line 1 ");
    expect(after.text).toMatch(new RegExp(`\\(\\d+ more items above(, \\d+ below)?: scroll ${inbox}\\)`));
  });

  it("viewport_only says that it left lines out", async () => {
    const s = await snap({ viewport_only: true, max_tokens: 100_000 });
    expect(s.truncated).toBe(true);
    expect(s.text.split("\n").at(-1)).toMatch(/^- note: left out \d+ lines outside the viewport \(viewport_only\)/);
  });
});

describe("a dialog whose body scrolls above its footer", () => {
  let page: Page;
  beforeAll(async () => {
    page = await h.openFixture("snap-dialog-list.html");
  });

  it("marks no option covered because its hidden centre lies under the footer; what the overlay covers still is", async () => {
    const s = await snap();
    for (let i = 0; i < 30; i++) {
      const slot = `Slot ${String(8 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`;
      expect(s.text, slot).toMatch(new RegExp(`- button "${slot}" \\[ref=e\\d+\\]`));
    }
    expect(s.text).toContain('- button "New appointment" [covered]');
    expect(s.text).not.toMatch(/Slot [^\n]*\[covered\]/);
  });

  it("a click scrolls an option clipped by the dialog's body into view and lands on it", async () => {
    // 11:00 is inside the window but below the body's fold, where the footer is.
    const s = await snap();
    const before = await page.evaluate(() => {
      const b = [...document.querySelectorAll("#body button")].find((x) => x.textContent === "Slot 11:00")!.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, inner: innerHeight, bodyBottom: document.getElementById("body")!.getBoundingClientRect().bottom };
    });
    expect(before.top).toBeLessThan(before.inner);
    expect(before.bottom).toBeGreaterThan(before.bodyBottom);
    // By selector: the action alone, whatever the snapshot marked.
    await ok(h, "click", { selector: { role: "button", name: "Slot 11:00" } });
    await ok(h, "click", { ref: refIn(s.text, 'button "Slot 22:30"') });
    expect(await pageVar(page, "picked")).toEqual(["Slot 11:00", "Slot 22:30"]);
    expect(await page.evaluate(() => document.getElementById("body")!.scrollTop)).toBeGreaterThan(0);
  });
});
