import { setTimeout as sleep } from "node:timers/promises";

/** Sleep that ends early (without throwing) when the signal aborts. */
export async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => {});
}
