import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderSnapshot } from "./snapshot.ts";
import { estimateTokens } from "@crumbs/schemas/tokens";
import type { VirtualNode } from "./virtual-node.ts";

function resultsPage(items: number, vpOf: (i: number) => number = (i) => (i < 10 ? 0 : i * 40)): VirtualNode {
  return {
    role: "generic",
    children: [
      { role: "heading", name: "Search", states: { level: 1 }, vp: 0 },
      { role: "searchbox", name: "Query", ref: "e1", value: "shoes", vp: 0 },
      {
        role: "list",
        name: "Results",
        vp: 0,
        children: Array.from({ length: items }, (_, i) => ({
          role: "listitem",
          vp: vpOf(i),
          children: [
            { role: "link", name: `Result number ${i} with a longer title`, ref: `e${i + 2}`, href: `/r/${i}`, vp: vpOf(i) },
            { role: "text", text: `A snippet of text describing result ${i}, long enough to cost tokens.`, vp: vpOf(i) },
          ],
        })),
      },
    ],
  };
}

describe("budget", () => {
  it("leaves a page that fits untouched", () => {
    const r = renderSnapshot(resultsPage(5));
    expect(r.truncated).toBe(false);
    expect(r.text.split("\n")).toHaveLength(3 + 5 * 3);
  });

  it("summarises long runs of siblings and says what was left out on the last line", () => {
    const r = renderSnapshot(resultsPage(120));
    expect(r.truncated).toBe(true);
    expect(r.tokens).toBeLessThanOrEqual(4000);
    expect(r.text).toContain('- list "Results" (120 items, 20 shown)');
    const last = r.text.split("\n").at(-1) ?? "";
    expect(last).toMatch(/^- note: cut to fit 4000 tokens: \d+ lines left out \(\d+ interactive\), 100 repeated items summarised/);
  });

  it("keeps the items in the viewport when summarising", () => {
    const r = renderSnapshot(resultsPage(200, (i) => (i >= 150 && i < 160 ? 0 : 5000)));
    expect(r.text).toContain("Result number 155 ");
    expect(r.text).toContain("Result number 0 ");
    expect(r.text).not.toContain("Result number 40 ");
  });

  it("keeps interactive elements in the viewport first when even the summary is too big", () => {
    const r = renderSnapshot(resultsPage(200), { max_tokens: 300 });
    expect(r.tokens).toBeLessThanOrEqual(300);
    expect(r.text).toContain('searchbox "Query" [ref=e1]');
    expect(r.text).toContain("[ref=e2]");
    expect(r.text).not.toContain("snippet of text describing result 19");
  });

  it("is deterministic", () => {
    const a = renderSnapshot(resultsPage(300), { max_tokens: 1000 });
    const b = renderSnapshot(resultsPage(300), { max_tokens: 1000 });
    expect(a.text).toBe(b.text);
  });

  it("never goes over the budget, whatever the tree", () => {
    const leaf = fc.record({
      role: fc.constantFrom("text", "button", "link", "heading", "listitem", "generic", "textbox"),
      name: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
      text: fc.string({ maxLength: 600 }),
      vp: fc.nat(3000),
    });
    const tree: fc.Arbitrary<VirtualNode> = fc.letrec<{ node: VirtualNode }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small", maxDepth: 6 },
        fc.tuple(leaf, fc.boolean()).map(([l, withRef]) => ({ ...l, ref: withRef ? "e1" : undefined })),
        fc
          .tuple(leaf, fc.array(tie("node"), { maxLength: 40 }), fc.boolean())
          .map(([l, children, withRef]) => ({ ...l, ref: withRef ? "e1" : undefined, children })),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.integer({ min: 200, max: 3000 }), (root, max) => {
        const r = renderSnapshot(root, { max_tokens: max });
        expect(estimateTokens(r.text)).toBeLessThanOrEqual(max);
        expect(r.tokens).toBe(estimateTokens(r.text));
      }),
      { numRuns: 150 },
    );
  });
});
