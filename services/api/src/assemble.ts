import { randomUUID } from "node:crypto";
import { natsServers, warmEngines } from "@crumbs/schemas";
import { defaultLogger, type Logger, type Registry } from "@crumbs/telemetry";
import type { ApiConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { openDatabase } from "./db/open.ts";
import { createApp, type CrumbsApp } from "./http/app.ts";
import { KeyChanges, KEYS_CHANNEL, PrincipalCache } from "./keys/index.ts";
import { Metrics } from "./metrics.ts";
import { apiNatsAuthenticator } from "./nats-auth/index.ts";
import { OwnerBus } from "./nats-auth/owner-bus.ts";
import { revokedApiKeysSince } from "./keys/index.ts";
import { connectNats, type NatsLink } from "./nats/connect.ts";
import { ChangeNotifier } from "./notifier.ts";
import { startRelay } from "./outbox/start.ts";
import type { Relay } from "./outbox/relay.ts";
import { RetentionSweeper } from "./retention/sweeper.ts";
import type { CommitListener } from "./store/index.ts";
import { databaseStartupError, natsStartupError } from "./startup-errors.ts";

export interface ApiStack {
  app: CrumbsApp;
  database: Database;
  nats: NatsLink;
  relay: Relay;
  /** TTL expiry and history retention, in the background. */
  sweeper: RetentionSweeper;
  /** The API's logger: background parts (the driver-fault guard too) report problems on it. */
  logger: Logger;
  close(): Promise<void>;
}

export interface AssembleOptions {
  config: ApiConfig;
  database?: Database;
  /**
   * The process's logger (`crumbs start` shares one with the runner; a quiet test passes
   * `silentLogger`): access lines, unhandled errors and the background parts' problems.
   * Default: @crumbs/telemetry's, named "api".
   */
  logger?: Logger;
  /** More series for /metrics, e.g. the runner's when it runs in the same process. */
  extraMetrics?: readonly Registry[];
}

/** Everything but the listening socket: database (opened unless given), migrations, NATS + stream, relay, app. */
export async function assembleApi(opts: AssembleOptions): Promise<ApiStack> {
  const { config } = opts;
  const logger = opts.logger ?? defaultLogger().child({ name: "api" });
  const database =
    opts.database ??
    (await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl, log: logger, maxConnections: config.pgPool } : { pgliteDir: config.pgliteDir, log: logger }).catch(
      (err: unknown) => {
        throw databaseStartupError(config.databaseUrl, err);
      },
    ));
  const cleanups: (() => Promise<unknown>)[] = [];
  if (!opts.database) cleanups.push(() => database.close());
  const close = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((err: unknown) => logger.error({ err }, "close failed"));
  };
  try {
    // Before any request: the first hostile evaluation would otherwise run uncompiled and hold
    // the loop several times longer than its work budget allows for.
    warmEngines();
    await migrate(database).catch((err: unknown) => {
      throw opts.database ? err : databaseStartupError(config.databaseUrl, err);
    });
    const nats = await connectNats({
      url: config.natsUrl,
      log: logger,
      authenticator: apiNatsAuthenticator(config.auth),
      streamLimits: config.streamLimits,
      streamReplicas: config.streamReplicas,
    }).catch((err: unknown) => {
      throw natsStartupError(config.natsUrl, err);
    });
    cleanups.push(() => nats.close());
    const metrics = new Metrics(opts.extraMetrics);
    const relay = await startRelay({ config, database, nats, metrics, log: logger });
    cleanups.push(() => relay.stop());
    const notifier = new ChangeNotifier(nats);
    cleanups.push(async () => notifier.close());
    const principalCache = new PrincipalCache({ ttlMs: config.authCacheTtlMs });
    const seed = config.auth?.natsAccountSeed;
    const ownerBus = seed
      ? new OwnerBus({
          servers: natsServers(config.natsUrl),
          accountSeed: seed,
          revokedKeys: (owner, since) => revokedApiKeysSince(database.db, owner, since),
          maxAgeSeconds: config.streamLimits.maxAgeSeconds,
          replicas: config.streamReplicas,
          now: () => new Date(),
        })
      : undefined;
    if (ownerBus) cleanups.push(() => ownerBus.close());
    // Another replica's revocation (and this one's, heard back): the app clears its cache and
    // makes open event streams check their key.
    const keyChanges = new KeyChanges();
    if (database.listen) cleanups.push(await database.listen(KEYS_CHANNEL, () => keyChanges.changed()));
    // The one commit listener, for the app's writes and the sweeper's expiries alike.
    const onCommitted: CommitListener = (owner, event) => {
      // A handed-over event wakes the relay itself; a second wake-up would only end its batch early.
      if (event) relay.offer(event);
      else relay.kick();
      notifier.notify(owner);
    };
    const app = createApp({
      database,
      adminToken: config.token,
      principalCache,
      keyChanges,
      auth: config.auth,
      bodyLimitBytes: config.bodyLimitBytes,
      ssePingMs: config.ssePingMs,
      nats,
      ...(ownerBus ? { ownerBus, natsPublicServers: config.auth?.natsPublicServers ?? natsServers(config.natsUrl) } : {}),
      notifier,
      metrics,
      onCommitted,
      backlog: () => relay.backlog(),
      sseMaxPerOwner: config.sseMaxPerOwner,
      pageMaxBytes: config.pageMaxBytes,
      ownerReads: config.ownerReads,
      authFailRateLimit: config.authFailRateLimit,
      onOutboxRetry: () => relay.kick(),
      logger,
    });
    const sweeper = new RetentionSweeper({
      store: {
        database,
        now: () => new Date(),
        newId: randomUUID,
        onCommitted,
      },
      policy: config.retention,
      idempotencyTtlSeconds: config.idempotencyTtlSeconds,
      intervalMs: config.sweepMs,
      log: logger,
    });
    sweeper.start();
    cleanups.push(() => sweeper.stop());
    return { app, database, nats, relay, sweeper, logger, close };
  } catch (err) {
    await close();
    throw err;
  }
}
