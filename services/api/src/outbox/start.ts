import type { Logger } from "@crumbs/telemetry";
import type { ApiConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { Metrics } from "../metrics.ts";
import type { NatsLink } from "../nats/connect.ts";
import { OutboxRelay, type Relay } from "./relay.ts";
import { drizzleRelayStore, outboxBacklog } from "./relay-store.ts";
import { ThreadRelay } from "./relay-thread.ts";

export interface StartRelayOptions {
  config: ApiConfig;
  database: Database;
  /** The API's NATS connection, used by the in-process relay (the thread opens its own). */
  nats: NatsLink;
  metrics: Metrics;
  log: Logger;
}

/**
 * The relay in its own thread on Postgres (CRUMBS_RELAY_THREAD=on, the default), in the
 * API's event loop otherwise and on embedded PGlite, which only the process that opened it can reach.
 */
export async function startRelay(o: StartRelayOptions): Promise<Relay> {
  const { config, database, metrics, log } = o;
  const backlog = () => outboxBacklog(database.db);
  const counters = {
    onPublished: (delaysMs: readonly number[], fromMemory: number) => metrics.addPublished(delaysMs, fromMemory),
    onParked: (n: number) => metrics.addParked(n),
    log,
  };
  if (config.relayThread && database.kind === "postgres" && config.databaseUrl) {
    const relay = new ThreadRelay({
      databaseUrl: config.databaseUrl,
      natsUrl: config.natsUrl,
      ...(config.auth ? { auth: { ...pick(config.auth) } } : {}),
      streamLimits: config.streamLimits,
      streamReplicas: config.streamReplicas,
      pollMs: config.relayPollMs,
      backlog,
      ...counters,
    });
    await relay.start().catch(async (err: unknown) => {
      await relay.stop();
      throw err;
    });
    return relay;
  }
  const relay = new OutboxRelay({
    store: drizzleRelayStore(database),
    nats: o.nats,
    pollMs: config.relayPollMs,
    ownerFeed: config.auth?.natsAccountSeed !== undefined,
    backlog,
    ...counters,
  });
  await relay.start();
  return relay;
}

/** Only what the thread needs to sign its NATS user: the rest of the auth config stays here. */
function pick(auth: NonNullable<ApiConfig["auth"]>) {
  return {
    ...(auth.natsAccountSeed ? { natsAccountSeed: auth.natsAccountSeed } : {}),
    ...(auth.natsCredsFile ? { natsCredsFile: auth.natsCredsFile } : {}),
  };
}
