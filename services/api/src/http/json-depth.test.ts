import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { jsonTextDepthExceeds } from "./json-depth.ts";

const depthOf = (v: unknown): number =>
  v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

describe("jsonTextDepthExceeds", () => {
  it("counts objects and arrays, ignoring brackets inside strings", () => {
    expect(jsonTextDepthExceeds('{"a":[1,{"b":"[[[{{{\\"]]"}]}', 3)).toBe(false);
    expect(jsonTextDepthExceeds('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
  });

  it("handles a 10,000-deep body without recursion", () => {
    expect(jsonTextDepthExceeds("[".repeat(10_000) + "]".repeat(10_000), 64)).toBe(true);
  });

  it("agrees with the depth of the parsed value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (v, limit) => {
        expect(jsonTextDepthExceeds(JSON.stringify(v), limit)).toBe(depthOf(v) > limit);
      }),
    );
  });
});
