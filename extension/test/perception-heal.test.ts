import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "./harness.ts";
import { ok, pageCall, pageVar, refIn, snapshot } from "./actions-helpers.ts";

// Refs that heal (fixtures/perception-heal.html): a list that re-renders its rows, a row that goes
// away, and a button re-rendered as its form's submit button, whose risk must be that of what it is now.

let h: Harness;
let page: Page;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const clicks = () => pageVar<string[]>(page, "clicks");
const rowButton = (text: string, invoice: number) => {
  const lines = text.split("\n");
  const row = lines.findIndex((l) => l.includes(`Invoice ${invoice}`));
  return lines.slice(row).find((l) => l.includes('button "Archive"'))!.match(/\[ref=(e\d+)\]/)![1]!;
};

describe("refs that heal", () => {
  beforeAll(async () => {
    page = await h.openFixture("perception-heal.html");
  });

  it("a re-rendered list: the ref of row 7's button acts on row 7's new button, never on a twin in another row", async () => {
    const text = await snapshot(h);
    const ref = rowButton(text, 7);
    await pageCall(page, "rerenderRows");
    const result = await h.execute({ type: "click", params: { ref } });
    expect(result).toMatchObject({ success: true, rebound: { ref: expect.stringMatching(/^e\d+$/) } });
    expect(await clicks()).toEqual(["archive-7"]);
  });

  it("the row is gone: stale_ref with the rows that are there, nothing clicked", async () => {
    const text = await snapshot(h);
    const ref = rowButton(text, 7);
    await pageCall(page, "dropRow", 7);
    const before = (await clicks()).length;
    const result = await h.execute({ type: "click", params: { ref } });
    expect(result).toMatchObject({ success: false, code: "stale_ref" });
    expect(result.candidates?.map((c) => [c.role, c.name])).toEqual([
      ["button", "Archive"],
      ["button", "Archive"],
    ]);
    expect((await clicks()).length).toBe(before);
  });

  it("the risk is that of the element acted on: a button re-rendered as the form's submit asks first", async () => {
    await page.reload();
    const text = await snapshot(h);
    const ref = refIn(text, 'button "Continue"');
    const site = new URL(page.url()).hostname;
    const guard = { approved: [], grants: [], sites: [site] };
    // As it was: a plain button, low risk, runs.
    await ok(h, "focus", { ref });
    await pageCall(page, "turnIntoSubmit");
    const result = await h.execute({ type: "click", params: { ref }, guard });
    expect(result).toMatchObject({ success: false, code: "blocked_by_policy", confirm: { risk: "high", kind: "submit" } });
    expect(result.confirm!.sentence).toMatch(/Submit the form 'Order'/);
    expect(await clicks()).toEqual([]);
    // Approved, it runs on that same element and says so.
    const approved = await h.execute({ type: "click", params: { ref }, guard: { ...guard, approved: ["submit"] } });
    expect(approved).toMatchObject({ success: true, rebound: { ref: expect.stringMatching(/^e\d+$/) } });
    expect(await clicks()).toEqual(["submitted"]);
  });
});
