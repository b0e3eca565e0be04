import { describe, expect, it } from "vitest";
import { renderSnapshot } from "./snapshot.ts";
import type { VirtualNode } from "./virtual-node.ts";

/** A page whose inbox pane scrolls: rows 0-9 in its view, the rest further down in the pane. */
function inbox(rows: number, scrolledTo = 0): VirtualNode {
  const vpOf = (i: number) => (i >= scrolledTo && i < scrolledTo + 10 ? 0 : Math.abs(i - scrolledTo) * 40);
  return {
    role: "generic",
    children: [
      {
        role: "main",
        ref: "e900",
        scrollable: true,
        vp: 0,
        children: Array.from({ length: rows }, (_, i) => ({
          role: "row",
          ref: `e${i + 1}`,
          vp: vpOf(i),
          children: [
            { role: "cell", name: `Sender ${i}`, vp: vpOf(i) },
            { role: "cell", name: `A subject line long enough to cost some tokens, number ${i}`, vp: vpOf(i) },
          ],
        })),
      },
    ],
  };
}

describe("pane notes", () => {
  it("a pane that fits says nothing", () => {
    const r = renderSnapshot(inbox(5));
    expect(r.truncated).toBe(false);
    expect(r.text).not.toContain("more");
  });

  it("a pane cut by the budget says how many rows are below and the ref that scrolls it", () => {
    const r = renderSnapshot(inbox(60), { max_tokens: 400 });
    expect(r.truncated).toBe(true);
    const shown = (r.text.match(/- row \[ref=/g) ?? []).length;
    const below = Number(r.text.match(/\((\d+) more rows below: scroll e900\)/)?.[1]);
    expect(shown).toBeGreaterThan(0);
    expect(shown + below).toBe(60);
    expect(r.tokens).toBeLessThanOrEqual(400);
  });

  it("a pane scrolled to its middle counts rows above and below", () => {
    const r = renderSnapshot(inbox(60, 30), { max_tokens: 400 });
    const m = r.text.match(/\((\d+) more rows above, (\d+) below: scroll e900\)/);
    expect(m, r.text).not.toBeNull();
    expect(r.text).toContain("Sender 30");
  });

  it("viewport_only says how many lines it left out", () => {
    const r = renderSnapshot(inbox(30), { viewport_only: true, max_tokens: 100_000 });
    expect(r.truncated).toBe(true);
    expect(r.text.split("\n").at(-1)).toMatch(/^- note: left out 60 lines outside the viewport/);
  });
});
