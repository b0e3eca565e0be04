import { z } from "zod";

/** `CRUMBS_RATE_LIMIT`: `<requests per second>[:<burst>]`, e.g. `50:200`; `off` disables. */
export const rateLimitSchema = z
  .string()
  .regex(/^(off|\d+(\.\d+)?(:\d+)?)$/, 'must be "<per second>[:<burst>]", e.g. 50:200, or "off"')
  .transform((s): RateLimit | undefined => {
    if (s === "off") return undefined;
    const [rate, burst] = s.split(":");
    const perSecond = Number(rate);
    return { perSecond, burst: burst === undefined ? Math.max(1, Math.ceil(perSecond * 4)) : Number(burst) };
  })
  .refine((l) => l === undefined || (l.perSecond > 0 && l.burst >= 1), "rate and burst must be positive");
export type RateLimit = { perSecond: number; burst: number };

/** Above this many tokens the least recently used bucket (a full one by then, most likely) is dropped. */
const MAX_BUCKETS = 10_000;

/** The outcome of one take: allowed when waitMs is 0. */
export interface Take {
  /** Milliseconds until a token is available; 0 when this request took one. */
  waitMs: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
}

/** Token buckets keyed by a string; pure apart from the clock passed in (milliseconds). */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly limit: RateLimit) {}

  /** Takes one token when there is one. */
  take(key: string, nowMs: number): Take {
    const { perSecond, burst } = this.limit;
    const b = this.buckets.get(key) ?? { tokens: burst, at: nowMs };
    b.tokens = Math.min(burst, b.tokens + ((nowMs - b.at) / 1000) * perSecond);
    b.at = nowMs;
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.buckets.delete(key);
    this.buckets.set(key, b);
    if (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    return {
      waitMs: allowed ? 0 : ((1 - b.tokens) / perSecond) * 1000,
      remaining: Math.floor(b.tokens),
      resetMs: ((burst - b.tokens) / perSecond) * 1000,
    };
  }
}
