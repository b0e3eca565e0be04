import { describe, expect, it } from "vitest";
import { renewDelayMs } from "./token-nats.ts";

describe("renewDelayMs", () => {
  it("renews at four fifths of the credentials' life, never sooner than 1 s", () => {
    expect(renewDelayMs(0, 3_600_000)).toBe(2_880_000);
    expect(renewDelayMs(0, 60_000)).toBe(48_000);
    expect(renewDelayMs(10_000, 10_500)).toBe(1_000);
    expect(renewDelayMs(10_000, 5_000)).toBe(1_000);
  });
});
