import { describe, expect, it } from "vitest";
import { chooseRebind, numberTwins, type Anchor } from "./heal.ts";

const anchor = (over: Partial<Anchor> = {}): Anchor => ({ role: "button", name: "Save", scope: "main", item: "", index: 0, count: 1, ...over });

describe("refs that heal: which element is the re-rendered one", () => {
  it("the one element with the same role, name and place", () => {
    expect(chooseRebind(anchor(), [{ scope: "main", item: "" }])).toEqual({ kind: "rebind", index: 0 });
    expect(chooseRebind(anchor(), [{ scope: "banner", item: "" }, { scope: "main", item: "" }])).toEqual({ kind: "rebind", index: 1 });
  });

  it("the same row of a list: the item's text tells the rows apart", () => {
    const old = anchor({ name: "Delete", item: "Invoice 7 Delete" });
    const now = [{ scope: "main", item: "Invoice 6 Delete" }, { scope: "main", item: "Invoice 7 Delete" }, { scope: "main", item: "Invoice 8 Delete" }];
    expect(chooseRebind(old, now)).toEqual({ kind: "rebind", index: 1 });
  });

  it("identical twins: the same position only when there are as many as before", () => {
    const old = anchor({ index: 1, count: 2 });
    expect(chooseRebind(old, [{ scope: "main", item: "" }, { scope: "main", item: "" }])).toEqual({ kind: "rebind", index: 1 });
    // A third appeared: the second one now may not be the one meant.
    expect(chooseRebind(old, [{ scope: "main", item: "" }, { scope: "main", item: "" }, { scope: "main", item: "" }])).toEqual({ kind: "stale", candidates: [0, 1, 2] });
  });

  it("nothing in the same place: stale, the same landmark's candidates first", () => {
    const old = anchor({ name: "Delete", item: "Invoice 7 Delete" });
    const now = [{ scope: "banner", item: "" }, { scope: "main", item: "Invoice 8 Delete" }];
    expect(chooseRebind(old, now)).toEqual({ kind: "stale", candidates: [1, 0] });
    expect(chooseRebind(old, [])).toEqual({ kind: "stale", candidates: [] });
  });

  it("never more than eight candidates", () => {
    const now = Array.from({ length: 20 }, () => ({ scope: "aside", item: "" }));
    expect(chooseRebind(anchor(), now)).toMatchObject({ kind: "stale" });
    expect((chooseRebind(anchor(), now) as { candidates: number[] }).candidates).toHaveLength(8);
  });

  it("numbers twins in document order", () => {
    const seen = [anchor(), anchor({ name: "Other" }), anchor(), anchor({ scope: "aside" })].map(({ index: _i, count: _c, ...a }) => a);
    expect(numberTwins(seen).map((a) => [a.index, a.count])).toEqual([[0, 2], [0, 1], [1, 2], [0, 1]]);
  });
});
