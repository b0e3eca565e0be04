import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.ts";

describe("parseDuration", () => {
  it("reads units and plain seconds", () => {
    expect(parseDuration("30d")).toBe(30 * 86_400);
    expect(parseDuration("12h")).toBe(43_200);
    expect(parseDuration("90m")).toBe(5_400);
    expect(parseDuration("2w")).toBe(1_209_600);
    expect(parseDuration("45")).toBe(45);
  });
  it("refuses what is not a positive duration", () => {
    for (const bad of ["", "0", "0d", "-1d", "1y", "1.5h", "d"]) expect(parseDuration(bad)).toBeUndefined();
  });
  it("refuses what is longer than 10 years, however it is written", () => {
    expect(parseDuration("520w")).toBe(520 * 604_800);
    for (const bad of ["999999999w", "3651d", "315360001", "9999999999999"]) expect(parseDuration(bad)).toBeUndefined();
  });
});
