import type { MiddlewareHandler } from "hono";
import { CrumbsError } from "../errors.ts";
import type { AppEnv } from "./context.ts";
import { TokenBuckets, type RateLimit } from "./rate-limit-bucket.ts";

export class RateLimitedError extends CrumbsError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super("rate_limited", `too many requests for this owner; retry in ${retryAfterSeconds} s`, 429, undefined, {
      headers: { ...headers, "Retry-After": String(retryAfterSeconds) },
    });
  }
}

/**
 * Per owner, after authentication (so unknown tokens do not fill the table): every key of an
 * owner draws from one bucket, so an admin key minting more keys gains no rate.
 * The buckets live in this process: with N replicas behind a load balancer an
 * owner gets up to N times the limit; set the limit to the total divided by N.
 * `admin` applies to CRUMBS_TOKEN (actor `admin`), `keys` to every API key.
 *
 * Every answer says where the token stands, in the header fields of
 * draft-ietf-httpapi-ratelimit-headers-07 (the last draft with separate fields):
 * RateLimit-Limit (the burst), RateLimit-Remaining, RateLimit-Reset (seconds
 * until the bucket is full again).
 */
export function rateLimit(
  limits: { keys?: RateLimit; admin?: RateLimit },
  now: () => number = () => performance.now(),
): MiddlewareHandler<AppEnv> {
  const keys = limits.keys && new TokenBuckets(limits.keys);
  const admin = limits.admin && new TokenBuckets(limits.admin);
  return async (c, next) => {
    const buckets = c.get("principal").actor === "admin" ? admin : keys;
    if (buckets) {
      const t = buckets.take(c.get("principal").owner, now());
      const headers = {
        "RateLimit-Limit": String(buckets.limit.burst),
        "RateLimit-Remaining": String(t.remaining),
        "RateLimit-Reset": String(Math.ceil(t.resetMs / 1000)),
      };
      if (t.waitMs > 0) throw new RateLimitedError(Math.max(1, Math.ceil(t.waitMs / 1000)), headers);
      for (const [k, v] of Object.entries(headers)) c.header(k, v);
    }
    await next();
  };
}
