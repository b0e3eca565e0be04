import { z } from "zod";
import type { CommittedEvent } from "../store/committed-event.ts";

/** What the relay thread is started with (workerData): plain data, so it crosses the thread boundary. */
export const relayWorkerDataSchema = z.object({
  databaseUrl: z.string(),
  natsUrl: z.string(),
  auth: z
    .object({ natsAccountSeed: z.string().optional(), natsCredsFile: z.string().optional() })
    .optional(),
  streamLimits: z.object({ maxAgeSeconds: z.number(), maxBytes: z.number() }).optional(),
  streamReplicas: z.number().int().optional(),
  pollMs: z.number().int(),
  /** One Int32 shared by both threads, see KICK below. */
  kickFlag: z.instanceof(SharedArrayBuffer),
});
export type RelayWorkerData = z.infer<typeof relayWorkerDataSchema>;

/**
 * The kick flag, for commits that hand no event over (an expiry's transaction, a retry of parked
 * rows); a write's own event goes as a message of its own, which wakes the relay too.
 * IDLE: the relay sleeps, a commit sets COMMITTED and posts one kick.
 * BATCH: a batch is running and no commit came since it began. COMMITTED: a commit
 * came (a kick is on its way, or the running relay will see it), so commits post nothing.
 * The relay also sleeps while a batch waits for its acks (RelayWake.nextInBatch), so the first
 * commit then posts one kick and its rows join that batch; otherwise, while batches run back to
 * back under load, the HTTP thread posts nothing.
 */
export const KICK = { IDLE: 0, BATCH: 1, COMMITTED: 2 } as const;

/** The main thread's side: true when this commit must post a kick. */
export function commitNeedsKick(flag: Int32Array): boolean {
  return Atomics.exchange(flag, 0, KICK.COMMITTED) === KICK.IDLE;
}

/** The relay thread's side (the relay's CommitLatch, relay-wake.ts). */
export function kickLatch(flag: Int32Array) {
  return {
    beginBatch: () => void Atomics.store(flag, 0, KICK.BATCH),
    // IDLE: an earlier call put the latch to sleep and no commit came since (one would have set COMMITTED).
    sinceBegin: () => Atomics.compareExchange(flag, 0, KICK.BATCH, KICK.IDLE) === KICK.COMMITTED,
  };
}

/** Main thread -> relay thread. Events handed over (in commit order) are a kick too. */
export type ToRelayThread = { type: "kick" } | { type: "events"; events: CommittedEvent[] } | { type: "stop" };

/** Relay thread -> main thread. */
export type FromRelayThread =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "published"; delaysMs: readonly number[]; fromMemory: number }
  | { type: "parked"; n: number }
  | { type: "log"; level: "error" | "warn" | "info" | "debug"; fields: object; msg: string | undefined }
  | { type: "stopped" };
