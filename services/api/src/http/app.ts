import { randomUUID } from "node:crypto";
import { defaultLogger, type Logger } from "@crumbs/telemetry";
import type { Database } from "../db/database.ts";
import { UnauthorizedError } from "../errors.ts";
import { KeyChanges, PrincipalCache, type RevokedKey } from "../keys/index.ts";
import { Metrics } from "../metrics.ts";
import type { NatsLink } from "../nats/connect.ts";
import { ChangeNotifier } from "../notifier.ts";
import { countParked } from "../outbox/parked.ts";
import { createSchemaDefHintsLookup, type CommitListener, type StoreDeps } from "../store/index.ts";
import { bearerToken, createAuthenticator, hashToken, type Authenticate } from "./auth.ts";
import type { AuthConfig } from "./auth-config.ts";
import type { RouteDeps } from "./context.ts";
import { accessLog, requestIds } from "./access-log.ts";
import { dashboardRoutes } from "./dashboard-ui.ts";
import { docsRoutes } from "./docs.ts";
import { methodNotAllowed } from "./method-not-allowed.ts";
import { buildDocument } from "./openapi/document.ts";
import { newRouter } from "./openapi/define.ts";
import { createErrorHandler, errorBody } from "./errors.ts";
import { agentConsumerRoutes } from "./routes/agent-consumers.ts";
import { breadcrumbRoutes } from "./routes/breadcrumbs.ts";
import { eventRoutes } from "./routes/events.ts";
import { healthRoutes } from "./routes/health.ts";
import { keyRoutes } from "./routes/keys.ts";
import { natsCredentialRoutes } from "./routes/nats-credentials.ts";
import { outboxRoutes } from "./routes/outbox.ts";
import { schemaCountRoutes } from "./routes/schema-counts.ts";
import { authFailureLimiter } from "./auth-failures.ts";
import { rateLimit } from "./rate-limit.ts";
import type { RateLimit } from "./rate-limit-bucket.ts";
import { StreamSlots } from "./stream-slots.ts";
import { OwnerReadGate } from "../limits/owner-read-gate.ts";
import type { OwnerReadLimits } from "../limits/owner-reads.ts";
import { DEFAULT_PAGE_MAX_BYTES } from "../store/paging/page-budget.ts";

/**
 * Reads of one owner queued past its running ones, and how long one waits for its turn: a paging
 * loop gets its pages one after another instead of 429s, a flood gets 429 within seconds.
 */
const OWNER_READ_QUEUE = { maxQueue: 32, maxWaitMs: 10_000 };
import type { OwnerBus } from "../nats-auth/owner-bus.ts";

export interface AppDeps {
  database: Database;
  /** CRUMBS_TOKEN: the admin token of owner `default`. */
  adminToken?: string;
  /** Replaces the default token check (CRUMBS_TOKEN + api_keys). */
  authenticate?: Authenticate;
  /** Authenticated keys, shared with whoever LISTENs for revocations (assemble.ts). Default: 10 s TTL. */
  principalCache?: PrincipalCache;
  /** Revocations of this and other replicas (assemble feeds it from KEYS_CHANNEL); default: this process's only. */
  keyChanges?: KeyChanges;
  /**
   * The one "key revoked" hook: after a revocation committed, with every key it revoked (the one
   * asked for and those it created, transitively), e.g. to revoke their NATS credentials.
   */
  onKeysRevoked?: (revoked: RevokedKey[]) => Promise<void>;
  /** Rate limits and the NATS account seed (SECURITY.md). */
  auth?: AuthConfig;
  bodyLimitBytes?: number;
  ssePingMs?: number;
  now?: () => Date;
  newId?: () => string;
  /** For readiness and for SSE wake-ups from other replicas. */
  nats?: NatsLink;
  /** The owners' NATS accounts (with CRUMBS_NATS_ACCOUNT_SEED): minted credentials, revocations. */
  ownerBus?: OwnerBus;
  /** The NATS URLs a client is told to use with the credentials it gets. */
  natsPublicServers?: string[];
  notifier?: ChangeNotifier;
  metrics?: Metrics;
  /**
   * The store's listener for every committed write (assembleApi's hands the event to the relay and
   * wakes `notifier`); default: wakes this app's SSE streams only. One given replaces the default,
   * so it must call `notifier.notify(owner)` itself.
   */
  onCommitted?: CommitListener;
  /** Outbox backlog for /metrics. */
  backlog?: () => Promise<number>;
  /** Open SSE streams per owner (default 16). */
  sseMaxPerOwner?: number;
  /** Bytes of row JSON per page (default DEFAULT_PAGE_MAX_BYTES). */
  pageMaxBytes?: number;
  /** Heavy reads per owner (default 2 at once, 8 MiB of pages). */
  ownerReads?: OwnerReadLimits;
  /** Failed authentications per client address (CRUMBS_AUTH_FAIL_RATE_LIMIT); undefined = off. */
  authFailRateLimit?: RateLimit;
  /** After `crumbs outbox retry` moved parked rows back: the relay's kick. */
  onOutboxRetry?: () => void;
  /** The access log and unhandled errors, with the request id; default: @crumbs/telemetry's process logger. */
  logger?: Logger;
}

export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? defaultLogger().child({ name: "api" });
  const reportError = (msg: string, err: unknown, reqId: string | undefined) => logger.error({ err, req_id: reqId }, msg);
  const metrics = deps.metrics ?? new Metrics();
  const notifier = deps.notifier ?? new ChangeNotifier(deps.nats);
  const principalCache = deps.principalCache ?? new PrincipalCache({ ttlMs: 10_000 });
  const keyChanges = deps.keyChanges ?? new KeyChanges();
  keyChanges.subscribe(() => principalCache.clear());
  const authenticate =
    deps.authenticate ?? createAuthenticator({ adminToken: deps.adminToken, db: deps.database.db, cache: principalCache });
  const store: StoreDeps = {
    database: deps.database,
    now: deps.now ?? (() => new Date()),
    newId: deps.newId ?? randomUUID,
    onCommitted: deps.onCommitted ?? ((owner) => notifier.notify(owner)),
  };
  const pageMaxBytes = deps.pageMaxBytes ?? DEFAULT_PAGE_MAX_BYTES;
  const routeDeps: RouteDeps = {
    database: deps.database,
    store,
    bodyLimitBytes: deps.bodyLimitBytes ?? 1024 * 1024,
    schemaDefHints: createSchemaDefHintsLookup(deps.database.db),
    notifier,
    ssePingMs: deps.ssePingMs ?? 15_000,
    streamSlots: new StreamSlots(deps.sseMaxPerOwner ?? 16),
    pageMaxBytes,
    keyChanges,
    ownerReads: new OwnerReadGate(deps.ownerReads ?? { reads: 2, bytes: 8 * 1024 * 1024 }, OWNER_READ_QUEUE),
    reportError: (msg, err) => reportError(msg, err, undefined),
  };
  const authFailures = authFailureLimiter(deps.authFailRateLimit);

  const app = newRouter();
  app.onError(createErrorHandler(reportError));
  app.notFound((c) => c.json(errorBody("not_found", `no route for ${c.req.method} ${c.req.path}`), 404));

  app.use("*", requestIds());
  app.use("*", accessLog(logger, metrics));
  app.use("*", methodNotAllowed(app as never));

  let document: object | undefined;
  app.route(
    "/",
    healthRoutes({
      database: deps.database,
      nats: deps.nats,
      metrics,
      backlog: deps.backlog,
      parked: () => countParked(deps.database.db),
      document: () => (document ??= buildDocument(app)),
    }),
  );
  app.route("/", dashboardRoutes());
  app.route("/", docsRoutes());

  app.use("/v1/*", async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    // One hash per request: the admin comparison and the key lookup share it.
    const tokenHash = token === undefined ? "" : hashToken(token);
    const principal = token === undefined ? undefined : await authenticate(token, tokenHash);
    if (!principal) {
      authFailures.failed(c);
      throw new UnauthorizedError();
    }
    c.set("principal", principal);
    c.set("stillAuthenticated", async () => (await authenticate(token!, tokenHash)) !== undefined);
    await next();
  });
  app.use("/v1/*", rateLimit({ keys: deps.auth?.rateLimit, admin: deps.auth?.adminRateLimit }));
  app.route("/v1/breadcrumbs", breadcrumbRoutes(routeDeps));
  app.route("/v1/events", eventRoutes(routeDeps));
  app.route("/v1/stats", schemaCountRoutes(routeDeps));
  app.route("/v1/agents", agentConsumerRoutes({ nats: deps.nats }));
  const ownerBus = deps.ownerBus;
  app.route(
    "/v1/keys",
    keyRoutes({
      ...routeDeps,
      now: store.now,
      onRevoked: async (revoked) => {
        keyChanges.changed();
        await deps.onKeysRevoked?.(revoked);
      },
      // The key is revoked already; a NATS that cannot be reached now gets the revocation with the
      // owner's next account push (every push carries all of them).
      ...(ownerBus ? { onOwnerKeysRevoked: (owner: string) => ownerBus.keysRevoked(owner).catch((err: unknown) => reportError("nats revocation push failed", err, undefined)) } : {}),
    }),
  );
  app.route("/v1/outbox", outboxRoutes({ ...routeDeps, onRetry: () => deps.onOutboxRetry?.() }));
  app.route(
    "/v1/nats",
    natsCredentialRoutes({ ownerBus, servers: deps.natsPublicServers ?? [], bodyLimitBytes: routeDeps.bodyLimitBytes }),
  );
  return app;
}

export type CrumbsApp = ReturnType<typeof createApp>;
