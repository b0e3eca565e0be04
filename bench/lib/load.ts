import { percentile } from "../stats.ts";

export interface LoadResult {
  ops: number;
  errors: number;
  seconds: number;
  perSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  firstError?: string;
}

/**
 * Closed loop: `workers` clients each run `op` back to back until `durationMs` has passed.
 * `op` returns false (or throws) for a failed operation, which is counted and not timed.
 */
export async function closedLoop(opts: {
  workers: number;
  durationMs: number;
  op: (worker: number) => Promise<boolean>;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + opts.durationMs;
  await Promise.all(
    Array.from({ length: opts.workers }, async (_, w) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        let ok = false;
        try {
          ok = await opts.op(w);
        } catch (err) {
          firstError ??= String(err);
        }
        if (ok) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    ops: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ...(firstError ? { firstError } : {}),
  };
}

/**
 * Open loop: starts `op` at a fixed rate whatever the previous ones are doing (so a slow
 * answer cannot lower the offered load), at most `maxInFlight` at a time.
 */
export async function openLoop(opts: {
  ratePerSecond: number;
  count: number;
  maxInFlight: number;
  op: (i: number) => Promise<void>;
}): Promise<{ seconds: number; achievedPerSecond: number; skipped: number; errors: number }> {
  const started = performance.now();
  const interval = 1000 / opts.ratePerSecond;
  let inFlight = 0;
  let skipped = 0;
  let errors = 0;
  const running = new Set<Promise<void>>();
  for (let i = 0; i < opts.count; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    // setTimeout has ~1 ms granularity; batch the ops that are due within it.
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= opts.maxInFlight) {
      skipped++;
      continue;
    }
    inFlight++;
    // A failed op (a socket the server closed as it was reused) is counted, not left to reject
    // unhandled until the end, which ended the whole bench run and left the API child running.
    const p = opts
      .op(i)
      .catch(() => void errors++)
      .finally(() => {
        inFlight--;
        running.delete(p);
      });
    running.add(p);
  }
  await Promise.all(running);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, achievedPerSecond: (opts.count - skipped) / seconds, skipped, errors };
}
