import { describe, expect, it } from "vitest";
import { MERGE_PATCH_EXAMPLES } from "./fixtures/merge-patch-examples.ts";
import { REFERENCE_PAGE_CONTEXT } from "./fixtures/page-context-example.ts";
import { applyMergePatch, changedKeys, jsonEqual, mergePatchBetween } from "./merge-patch.ts";

const clone = <T>(v: T): T => structuredClone(v);

describe("applyMergePatch (RFC 7396)", () => {
  it.each(MERGE_PATCH_EXAMPLES.map((e, i) => [i, e] as const))("example %i", (_i, { target, patch, result }) => {
    const before = clone(target);
    expect(applyMergePatch(target, patch)).toEqual(result);
    expect(target).toEqual(before); // the target is not changed in place
  });
});

describe("mergePatchBetween", () => {
  const prev = clone(REFERENCE_PAGE_CONTEXT) as Record<string, unknown>;

  it("sends only what changed, and applying it gives the new context exactly", () => {
    const next = clone(prev) as Record<string, unknown> & { viewport: Record<string, unknown> };
    next.viewport = { ...next.viewport, scrollY: 1200 };
    next.title = "Another title";
    delete next.favicon;
    const patch = mergePatchBetween(prev, next)!;
    expect(patch).toEqual({ viewport: { scrollY: 1200 }, title: "Another title", favicon: null });
    expect(jsonEqual(applyMergePatch(prev, patch), next)).toBe(true);
    expect(JSON.stringify(patch).length).toBeLessThan(JSON.stringify(next).length / 4);
  });

  it("is undefined when nothing changed", () => {
    expect(mergePatchBetween(prev, clone(prev))).toBeUndefined();
  });

  it("is undefined when the new context sets an object member to null (a merge patch would remove it)", () => {
    expect(mergePatchBetween({ a: { b: 1 } }, { a: { b: null } })).toBeUndefined();
    // Inside an array null is a value like any other: arrays are sent whole.
    expect(mergePatchBetween({ a: [1] }, { a: [null] })).toEqual({ a: [null] });
  });

  it("keeps an existing null member when it did not change", () => {
    expect(mergePatchBetween({ a: null, b: 1 }, { a: null, b: 2 })).toEqual({ b: 2 });
  });
});

describe("changedKeys", () => {
  it("names added, removed and changed top-level keys, sorted, ignoring key order", () => {
    expect(changedKeys({ a: 1, b: { x: 1, y: 2 }, c: 3 }, { b: { y: 2, x: 1 }, c: 4, d: 5 })).toEqual(["a", "c", "d"]);
  });
});
