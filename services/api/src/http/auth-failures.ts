import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { CrumbsError } from "../errors.ts";
import { TokenBuckets, type RateLimit } from "./rate-limit-bucket.ts";

export class AuthFailuresLimitedError extends CrumbsError {
  constructor(retryAfterSeconds: number) {
    super("rate_limited", `too many failed authentications from this address; retry in ${retryAfterSeconds} s`, 429, undefined, {
      headers: { "Retry-After": String(retryAfterSeconds) },
    });
  }
}

/**
 * Failed authentications per client address (the socket's peer: a
 * forwarded-for header is the client's to forge). Only failures take from the
 * bucket, so a valid token from the same address keeps working while a flood
 * of unknown ones gets 429 instead of a token lookup each.
 */
export function authFailureLimiter(limit: RateLimit | undefined, now: () => number = () => performance.now()) {
  const buckets = limit && new TokenBuckets(limit);
  return {
    /** Call when a request's token was missing or unknown: throws 429 once the address is over its limit. */
    failed(c: Context): void {
      const address = clientAddress(c);
      if (!buckets || address === undefined) return;
      const wait = buckets.take(address, now()).waitMs;
      if (wait > 0) throw new AuthFailuresLimitedError(Math.max(1, Math.ceil(wait / 1000)));
    },
  };
}

/** Undefined without a socket (app.request() in-process): there is no client to limit. */
function clientAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
