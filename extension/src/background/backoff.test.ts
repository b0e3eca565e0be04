import { describe, expect, it } from "vitest";
import { backoffDelay, RECONNECT_BACKOFF } from "./backoff.ts";

describe("backoffDelay", () => {
  it("doubles from the base up to the cap", () => {
    const opts = { baseMs: 100, maxMs: 1000, jitter: 0 };
    expect([0, 1, 2, 3, 4, 50].map((a) => backoffDelay(a, opts))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("jitter stays inside [delay*(1-j), delay]", () => {
    for (let a = 0; a < 10; a++) {
      const full = Math.min(RECONNECT_BACKOFF.maxMs, RECONNECT_BACKOFF.baseMs * 2 ** a);
      expect(backoffDelay(a, RECONNECT_BACKOFF, () => 0)).toBe(Math.round(full / 2));
      expect(backoffDelay(a, RECONNECT_BACKOFF, () => 0.999999)).toBeLessThanOrEqual(full);
    }
  });
});
