import * as z from "@crumbs/schemas/zod-mini";
import { stored } from "./store.ts";

// Who wants this extension's page context now: the live browser.context.interest.v1 leases the
// worker knows of, written by the worker (background/context/interest-watch.ts) and read by the
// tracker (capture only while one is live) and the side panel ("shared with ..." / "paused").
// Each lease has its end by this browser's clock (`until`, ms), so a lease whose holder died stops
// counting even while the worker sleeps and nobody prunes the list.

const leaseSchema = z.object({
  holder_id: z.string(),
  label: z.string(),
  /** When it stops counting, by this browser's clock (ms since the epoch). */
  until: z.number(),
});
export type KnownLease = z.infer<typeof leaseSchema>;

export const interestStateSchema = z.object({ leases: z.record(z.string(), leaseSchema) });
export type InterestState = z.infer<typeof interestStateSchema>;

export const INTEREST_KEY = "crumbs.interest";
export const interestState = stored(INTEREST_KEY, interestStateSchema, () => ({ leases: {} }));

/** The labels of the holders with a live lease, each once, sorted: empty means capture is paused. */
export function liveLabels(state: InterestState, now: number): string[] {
  const labels = new Map<string, string>();
  for (const l of Object.values(state.leases)) if (l.until > now) labels.set(l.holder_id, l.label);
  return [...new Set(labels.values())].sort();
}

/** When the next live lease ends (ms), for a timer that notices it; undefined with none live. */
export function nextEnd(state: InterestState, now: number): number | undefined {
  const ends = Object.values(state.leases).map((l) => l.until).filter((u) => u > now);
  return ends.length ? Math.min(...ends) : undefined;
}

/** Without the leases that ended, so the stored list does not grow. */
export function pruned(state: InterestState, now: number): InterestState {
  return { leases: Object.fromEntries(Object.entries(state.leases).filter(([, l]) => l.until > now)) };
}

/** What the side panel says about capture. */
export function interestLine(labels: readonly string[]): string {
  return labels.length ? `shared with ${labels.join(", ")}` : "paused — no agent is listening";
}
