import { z } from "zod";

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
  /** Int32Array over it: 1 while a kick is on its way to the thread, so commits post at most one. */
  kickFlag: z.instanceof(SharedArrayBuffer),
});
export type RelayWorkerData = z.infer<typeof relayWorkerDataSchema>;

/** Main thread -> relay thread. */
export type ToRelayThread = { type: "kick" } | { type: "stop" };

/** Relay thread -> main thread. */
export type FromRelayThread =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "published"; n: number }
  | { type: "parked"; n: number }
  | { type: "log"; msg: string }
  | { type: "stopped" };
