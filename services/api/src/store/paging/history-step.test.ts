import { describe, expect, it } from "vitest";
import { nextLargeSized, stepOutcome } from "./history-step.ts";

describe("nextLargeSized", () => {
  it("sizes a few large rows first, then as many as the sizes seen say the rest of the budget holds, and one more", () => {
    expect(nextLargeSized({ rows: 0, bytes: 0 }, 4_000_000)).toBe(4);
    expect(nextLargeSized({ rows: 4, bytes: 2_800_000 }, 1_200_000)).toBe(3);
    expect(nextLargeSized({ rows: 2, bytes: 4_000 }, 4_000_000)).toBe(1_025);
  });
});

describe("stepOutcome", () => {
  it("ends the page when every candidate fitted: fewer rows than asked for exist", () => {
    expect(stepOutcome([{ bytes: 10, fits: true }], { asked: 5, capped: false })).toBe("end");
    expect(stepOutcome([], { asked: 5, capped: false })).toBe("end");
  });

  it("goes on after a large row the step left unsized, or at the step's own row cap", () => {
    expect(stepOutcome([{ bytes: 10, fits: true }, { bytes: null, fits: false }], { asked: 5, capped: false })).toBe("continue");
    expect(stepOutcome([{ bytes: 10, fits: true }, { bytes: 10, fits: false }], { asked: 1, capped: true })).toBe("continue");
  });

  it("says more follow when a sized row did not fit the page", () => {
    expect(stepOutcome([{ bytes: 10, fits: true }, { bytes: 9_999_999, fits: false }], { asked: 5, capped: false })).toBe("more");
    expect(stepOutcome([{ bytes: 10, fits: true }, { bytes: 10, fits: false }], { asked: 1, capped: false })).toBe("more");
  });
});
