import type { MiddlewareHandler } from "hono";
import { CrumbsError } from "../errors.ts";
import { bearerToken, hashToken } from "./auth.ts";
import type { AppEnv } from "./context.ts";
import { TokenBuckets, type RateLimit } from "./rate-limit-bucket.ts";

export class RateLimitedError extends CrumbsError {
  constructor(retryAfterSeconds: number) {
    super("rate_limited", `too many requests for this token; retry in ${retryAfterSeconds} s`, 429, undefined, {
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
  }
}

/**
 * Per token, after authentication (so unknown tokens do not fill the table).
 * The buckets live in this process: with N replicas behind a load balancer a
 * token gets up to N times the limit; set the limit to the total divided by N.
 * `admin` applies to CRUMBS_TOKEN (actor `admin`), `keys` to every API key.
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
      const wait = buckets.take(hashToken(bearerToken(c.req.header("authorization")) ?? ""), now());
      if (wait > 0) throw new RateLimitedError(Math.max(1, Math.ceil(wait / 1000)));
    }
    await next();
  };
}
