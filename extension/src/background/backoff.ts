// Pure delay schedules: NATS reconnects and the living breadcrumb's retry on 412.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** 0..1: how much of the delay is random, so many clients do not retry in step. */
  jitter: number;
}

export const RECONNECT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 5_000, jitter: 0.5 };

/** Delay before attempt `attempt` (0 = first retry): exponential, capped, with jitter taken off the top. */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  const j = Math.min(1, Math.max(0, opts.jitter));
  return Math.round(exp * (1 - j) + exp * j * random());
}
