import { describe, expect, it } from "vitest";
import { diffJson } from "./json-diff.ts";

describe("diffJson", () => {
  it("lists added, removed and changed leaves with their paths", () => {
    const a = { title: "Pricing", price: 10, tags: ["a", "b"], meta: { x: 1, "odd key": true } };
    const b = { title: "Pricing", price: 12, tags: ["a"], meta: { y: 2, "odd key": true }, extra: null };
    expect(diffJson(a, b)).toEqual([
      { path: "$.price", kind: "changed", before: 10, after: 12 },
      { path: "$.tags[1]", kind: "removed", before: "b" },
      { path: "$.meta.x", kind: "removed", before: 1 },
      { path: "$.meta.y", kind: "added", after: 2 },
      { path: "$.extra", kind: "added", after: null },
    ]);
  });

  it("is empty for equal values and treats a type change as one change", () => {
    expect(diffJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([{ path: "$.a", kind: "changed", before: [1], after: { 0: 1 } }]);
  });
});
