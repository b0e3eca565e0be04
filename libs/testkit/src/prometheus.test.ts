import { describe, expect, it } from "vitest";
import { seriesSamples, seriesValue } from "./prometheus.ts";

const text = [
  "# HELP d_seconds d",
  "# TYPE d_seconds histogram",
  'd_seconds_bucket{le="0.1",route="/a"} 3',
  'd_seconds_bucket{le="+Inf",route="/a"} 5',
  "d_seconds_count 5",
  "d_seconds_total_count 9",
].join("\n");

describe("seriesValue", () => {
  it("reads a series by its exact name and the labels asked for", () => {
    expect(seriesValue(text, "d_seconds_count")).toBe(5);
    expect(seriesValue(text, "d_seconds_bucket", { le: "0.1" })).toBe(3);
    expect(seriesValue(text, "d_seconds_bucket", { le: "+Inf", route: "/a" })).toBe(5);
  });

  it("gives undefined for a name or label set that is not there", () => {
    expect(seriesValue(text, "d_seconds")).toBeUndefined();
    expect(seriesValue(text, "d_seconds_bucket", { le: "0.5" })).toBeUndefined();
  });
});

describe("seriesSamples", () => {
  it("gives every sample of a series with its labels, in text order", () => {
    expect(seriesSamples(text, "d_seconds_bucket")).toEqual([
      { labels: { le: "0.1", route: "/a" }, value: 3 },
      { labels: { le: "+Inf", route: "/a" }, value: 5 },
    ]);
    expect(seriesSamples(text, "d_seconds")).toEqual([]);
  });
});
