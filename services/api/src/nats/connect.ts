import type { Logger } from "@crumbs/telemetry";
import { connect, Events, type Authenticator, type NatsConnection } from "nats";
import { NATS_RECONNECT, natsServers } from "@crumbs/schemas";
import { ensureStream, type StreamLimits } from "./stream.ts";

/** NATS's own default, used only if the server sent no INFO yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

export interface NatsLink {
  readonly nc: NatsConnection;
  /** False between a disconnect and the next reconnect: the relay waits instead of queueing publishes. */
  connected(): boolean;
  /**
   * The server's `max_payload` from the connection's server info (updated on every
   * reconnect, so a server restarted with another limit is followed).
   */
  maxPayload(): number;
  /** Called after every reconnect, once the stream was ensured again. */
  onReconnect(fn: () => void): () => void;
  close(): Promise<void>;
}

export async function connectNats(opts: {
  url: string;
  name?: string;
  log?: Logger;
  /** NATS credentials when the server is not open (see nats-auth/). */
  authenticator?: Authenticator;
  /** Applied to the CRUMBS stream at connect and after every reconnect. */
  streamLimits?: StreamLimits;
  /** Copies of the CRUMBS stream across a NATS cluster (CRUMBS_STREAM_REPLICAS, default 1). */
  streamReplicas?: number;
}): Promise<NatsLink> {
  const nc = await connect({
    servers: natsServers(opts.url),
    name: opts.name ?? "crumbs-api",
    ...(opts.authenticator ? { authenticator: opts.authenticator } : {}),
    ...NATS_RECONNECT,
    // Without this nats.js allocates an Error (a stack capture) and a timeout error for every
    // request (JetStream API calls here; the relay's publishes go through nats/publisher.ts).
    // Our errors are logged by message; the async stack added nothing.
    noAsyncTraces: true,
  });
  await ensureStream(nc, opts.streamLimits, opts.streamReplicas);
  let up = true;
  const listeners = new Set<() => void>();
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect) {
        up = false;
        opts.log?.warn({ server: String(s.data) }, "nats disconnected");
      } else if (s.type === Events.Reconnect) {
        // The server may have come back empty (new volume): ensure the stream before publishing again.
        try {
          await ensureStream(nc, opts.streamLimits, opts.streamReplicas);
          up = true;
        } catch (err) {
          opts.log?.warn({ err }, "nats reconnected but the stream could not be ensured");
          up = true;
        }
        for (const fn of listeners) fn();
      }
    }
  })();
  return {
    nc,
    connected: () => up && !nc.isClosed(),
    maxPayload: () => nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD,
    onReconnect(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    async close() {
      listeners.clear();
      if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
    },
  };
}
