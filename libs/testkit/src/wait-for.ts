import { setTimeout as sleep } from "node:timers/promises";

/** Poll `fn` until it returns a truthy value or the timeout passes. */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  { timeout = 10_000, interval = 25, message = "condition" } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await sleep(interval);
  }
  throw new Error(`timed out after ${timeout} ms waiting for ${message}${last ? `: ${String(last)}` : ""}`);
}
