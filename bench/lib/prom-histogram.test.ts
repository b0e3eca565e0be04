import { describe, expect, it } from "vitest";
import { quantileBound, readHistogram } from "./prom-histogram.ts";

const text = (counts: number[]) =>
  [
    "# HELP d_seconds d",
    "# TYPE d_seconds histogram",
    `d_seconds_bucket{le="0.005"} ${counts[0]}`,
    `d_seconds_bucket{le="0.01"} ${counts[1]}`,
    `d_seconds_bucket{le="0.025"} ${counts[2]}`,
    `d_seconds_bucket{le="+Inf"} ${counts[3]}`,
    `d_seconds_sum 1`,
    `d_seconds_count ${counts[3]}`,
    'other_bucket{le="0.005"} 99',
  ].join("\n");

describe("a histogram read from /metrics", () => {
  it("gives the bucket bound of a quantile of what was observed between two readings", () => {
    const before = readHistogram(text([10, 10, 10, 10]), "d_seconds")!;
    // 100 new observations: 90 under 5 ms, 8 more under 10 ms, 2 over 25 ms.
    const after = readHistogram(text([100, 108, 108, 110]), "d_seconds")!;
    expect(quantileBound(before, after, 0.5)).toBe(0.005);
    expect(quantileBound(before, after, 0.9)).toBe(0.005);
    expect(quantileBound(before, after, 0.95)).toBe(0.01);
    expect(quantileBound(before, after, 0.99)).toBe(Infinity);
  });

  it("says nothing when nothing was observed or the series is missing", () => {
    const same = readHistogram(text([3, 4, 5, 6]), "d_seconds")!;
    expect(quantileBound(same, same, 0.99)).toBeUndefined();
    expect(readHistogram(text([1, 1, 1, 1]), "missing_seconds")).toBeUndefined();
  });
});
