import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, refIn, snapshot, pageVar } from "./actions-helpers.ts";

// Rows and cards as a reader takes them in: a row's text once (not as its name and again in its cells),
// a card's heading, text and buttons together, an icon button named by what it does and its card, and a
// link inside a clickable row with a ref of its own.

let h: Harness;
let page: Page;
let text: string;
beforeAll(async () => {
  h = await startHarness();
  page = await h.openFixture("snap-groups.html");
  text = await snapshot(h);
});
afterAll(async () => {
  await h?.close();
});

describe("rows, cards and what is inside them", () => {
  it("prints a row's text once: the cells say it, the row line does not repeat it", async () => {
    expect(text).toMatch(/^ {4}- row \[ref=e\d+\]$/m);
    expect(text.match(/INV-001/g)).toHaveLength(2); // the link's name and its target
    expect(text.match(/Acme/g)).toHaveLength(1);
    expect(text.match(/Ada Quarterly report/g)).toHaveLength(1);
    // Also a row longer than a name may be (its name comes cut, ending in "…"): the text once.
    expect(text.match(/Offsite agenda and travel/g)).toHaveLength(1);
  });

  it("keeps each card's heading, text and buttons together, and names its icon button by the card", async () => {
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.includes('heading "Penicillin allergy"'));
    expect(lines[at - 1]).toBe("- group");
    expect(lines.slice(at, at + 4).map((l) => l.replace(/\[ref=e\d+\]/, "[ref]"))).toEqual([
      '  - heading "Penicillin allergy" [level=3]',
      "  - paragraph: Anaphylaxis, 2021",
      '  - button "delete: Penicillin allergy" [ref]',
      '  - button "✎" [ref]',
    ]);
    await ok(h, "click", { ref: refIn(text, 'button "delete: Penicillin allergy"') });
    // The same name reaches it as a role selector.
    await ok(h, "click", { selector: { role: "button", name: "delete: Peanut allergy" } });
    expect(await pageVar(page, "log")).toEqual(["delete Penicillin allergy", "delete Peanut allergy"]);
  });

  it("gives a link and a cell with its own handler inside a pointer-cursor row refs of their own; each does its own thing", async () => {
    await page.evaluate(() => ((window as unknown as { log: string[] }).log = []));
    const row = refIn(text, /- row \[ref=/);
    const link = refIn(text, 'link "INV-002"');
    expect(link).not.toBe(row);
    // The client's name has a click handler of its own (a React prop): a ref of its own too. The date does not.
    const client = refIn(text, /- generic "Globex" \[ref=/);
    expect(text).not.toMatch(/2026-11-09" \[ref=/);
    await ok(h, "click", { ref: link });
    await ok(h, "click", { ref: client });
    await ok(h, "click", { ref: row });
    expect(await pageVar(page, "log")).toEqual(["open INV-002", "client Globex", "select INV-001"]);
  });
});
