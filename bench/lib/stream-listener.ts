import { Worker } from "node:worker_threads";

/** Wall-clock milliseconds with sub-ms resolution, comparable between this thread and the listener's. */
export const clockMs = (): number => performance.timeOrigin + performance.now();

export interface StreamListenerOptions {
  natsUrl: string;
  stream: string;
  filter: string;
  /**
   * Where a message's key comes from: "msg-id" takes `Nats-Msg-Id` up to its last ":" (`<id>:<version>`
   * of `<id>:<version>:<type>`); any other value names a header to read as it is.
   */
  key: "msg-id" | string;
}

export interface StreamListener {
  /** Receipt time (clockMs) by key, filled in as the listener thread reports. */
  seen: Map<string, number>;
  /**
   * When JetStream stored each message (its own stamp, in ms of the same wall clock): it splits a
   * message's path into the publisher's side (up to the store) and the delivery to the subscriber.
   */
  stored: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Receives a stream's messages on a thread of its own (stream-listener-worker.ts), through an
 * ordered consumer, and stamps each on arrival. In the load generator's thread, its event loop
 * stalls (its GC, 1,000 requests a second to send and answer) stamped events late that had
 * arrived on time; an agent is a process of its own, not a callback behind a load generator.
 */
export async function startStreamListener(opts: StreamListenerOptions): Promise<StreamListener> {
  const worker = new Worker(new URL("./stream-listener-worker.ts", import.meta.url), { workerData: opts });
  const seen = new Map<string, number>();
  const stored = new Map<string, number>();
  await new Promise<void>((resolve, reject) => {
    worker.on("message", (m: { type: "ready" } | { type: "seen"; entries: [string, number, number][] }) => {
      if (m.type === "ready") resolve();
      else
        for (const [k, t, s] of m.entries) {
          seen.set(k, t);
          stored.set(k, s);
        }
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`stream listener exited with code ${code}`)));
  });
  return {
    seen,
    stored,
    async stop() {
      await worker.terminate();
    },
  };
}
