import { describe, expect, it } from "vitest";
import { rateLimitSchema, TokenBuckets } from "./rate-limit-bucket.ts";

describe("token buckets", () => {
  it("allows the burst, then refills at the rate", () => {
    const b = new TokenBuckets({ perSecond: 2, burst: 3 });
    expect([0, 0, 0].map(() => b.take("t", 0))).toEqual([
      { waitMs: 0, remaining: 2, resetMs: 500 },
      { waitMs: 0, remaining: 1, resetMs: 1_000 },
      { waitMs: 0, remaining: 0, resetMs: 1_500 },
    ]);
    expect(b.take("t", 0)).toEqual({ waitMs: 500, remaining: 0, resetMs: 1_500 });
    expect(b.take("t", 499).waitMs).toBeGreaterThan(0);
    // 1 s after the empty bucket: two tokens came back, this request took one.
    expect(b.take("t", 1_000)).toEqual({ waitMs: 0, remaining: 1, resetMs: 1_000 });
  });

  it("keeps tokens apart", () => {
    const b = new TokenBuckets({ perSecond: 1, burst: 1 });
    expect(b.take("a", 0).waitMs).toBe(0);
    expect(b.take("a", 0).waitMs).toBeGreaterThan(0);
    expect(b.take("b", 0).waitMs).toBe(0);
  });

  it("parses CRUMBS_RATE_LIMIT", () => {
    expect(rateLimitSchema.parse("50:200")).toEqual({ perSecond: 50, burst: 200 });
    expect(rateLimitSchema.parse("5")).toEqual({ perSecond: 5, burst: 20 });
    expect(rateLimitSchema.parse("off")).toBeUndefined();
    expect(rateLimitSchema.safeParse("0").success).toBe(false);
    expect(rateLimitSchema.safeParse("fast").success).toBe(false);
  });
});
