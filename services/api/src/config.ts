import { readFileSync } from "node:fs";
import { z } from "zod";
import { natsUrlSetting } from "@crumbs/schemas";
import { LOG_FORMATS, LOG_LEVELS } from "@crumbs/telemetry";
import { ConfigError } from "./errors.ts";
import { authConfigFrom, authEnvShape, type AuthConfig } from "./http/auth-config.ts";
import { isAccountSeed } from "./nats-auth/index.ts";
import { rateLimitSchema, type RateLimit } from "./http/rate-limit-bucket.ts";
import { DEFAULT_PG_POOL } from "./db/postgres/pool-size.ts";
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from "./nats/stream.ts";
import { parseRetentionEnv, type RetentionPolicy } from "./retention/policy.ts";
import { DEFAULT_PAGE_MAX_BYTES } from "./store/paging/page-budget.ts";
import type { OwnerReadLimits } from "./limits/owner-reads.ts";

const MiB = 1024 * 1024;
const TEN_YEARS_S = 10 * 365 * 86_400;
/** Every numeric variable has a range; outside it the API refuses to start, naming the variable. */
const int = (min: number, max: number, dflt: number) => z.coerce.number().int().min(min).max(max).default(dflt);

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  CRUMBS_PGLITE_DIR: z.string().min(1).default(".crumbs/pg"),
  NATS_URL: natsUrlSetting,
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default("0.0.0.0"),
  CRUMBS_TOKEN: z.string().min(8, "must be at least 8 characters").optional(),
  ...authEnvShape,
  /** CRUMBS_NATS_ACCOUNT_SEED from a file (docker compose's nats-init volume), read once at start. */
  CRUMBS_NATS_ACCOUNT_SEED_FILE: z.string().min(1).optional(),
  CRUMBS_BODY_LIMIT: int(1024, 64 * MiB, MiB),
  CRUMBS_SSE_PING_MS: int(10, 600_000, 15_000),
  CRUMBS_RELAY_POLL_MS: int(10, 600_000, 1_000),
  /** The outbox relay in a worker thread of its own (Postgres only); "off" runs it on the HTTP event loop. */
  CRUMBS_RELAY_THREAD: z.enum(["on", "off"]).default("on"),
  CRUMBS_RETENTION: z.string().optional(),
  CRUMBS_SWEEP_MS: int(10, 3_600_000, 5_000),
  CRUMBS_STREAM_MAX_AGE_SECONDS: int(60, TEN_YEARS_S, DEFAULT_STREAM_LIMITS.maxAgeSeconds),
  CRUMBS_STREAM_MAX_BYTES: int(MiB, 2 ** 50, DEFAULT_STREAM_LIMITS.maxBytes),
  CRUMBS_IDEMPOTENCY_TTL_SECONDS: int(60, 30 * 86_400, 86_400),
  CRUMBS_SSE_MAX_PER_OWNER: int(1, 10_000, 16),
  /** Bytes of row JSON one page holds (events, lists, history, SSE backfill); store/paging/page-budget.ts. */
  CRUMBS_PAGE_MAX_BYTES: int(64 * 1024, 64 * MiB, DEFAULT_PAGE_MAX_BYTES),
  /** Heavy reads (pages) one owner runs at once, and the bytes of pages they may hold; limits/owner-reads.ts. */
  CRUMBS_OWNER_READS: int(1, 64, 2),
  CRUMBS_OWNER_READ_BYTES: int(64 * 1024, 1024 * MiB, 8 * MiB),
  /** Failed authentications per client address; see http/auth-failures.ts. */
  CRUMBS_AUTH_FAIL_RATE_LIMIT: rateLimitSchema.prefault("5:20"),
  /** JetStream replicas of the CRUMBS stream: 3 on a 3-node NATS cluster (docs/scaling.md). */
  CRUMBS_STREAM_REPLICAS: int(1, 5, 1),
  /** How long an authenticated API key is trusted without a database look-up; 0 turns the cache off. */
  CRUMBS_AUTH_CACHE_TTL_MS: int(0, 300_000, 10_000),
  /** Postgres connections of this process; statements are pipelined onto them (db/postgres/pool-size.ts). */
  CRUMBS_PG_POOL: int(1, 1_000, DEFAULT_PG_POOL),
  /** Checked here so a bad value stops the API too; the process logger (@crumbs/telemetry) reads them. */
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
});

/** Every variable loadApiConfig reads; anything else in the environment is ignored. */
export const API_ENV_VARS: readonly string[] = Object.keys(envSchema.shape);

export interface ApiConfig {
  /** Unset: embedded PGlite in `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
  natsUrl: string;
  port: number;
  host: string;
  /** Admin token of owner `default`. */
  token?: string;
  /** API keys, rate limits, NATS credentials (SECURITY.md). */
  auth?: AuthConfig;
  bodyLimitBytes: number;
  ssePingMs: number;
  relayPollMs: number;
  /** The relay runs in a worker thread with its own connections (Postgres only). */
  relayThread: boolean;
  /** History retention per schema (CRUMBS_RETENTION over the defaults). */
  retention: RetentionPolicy;
  /** Pause between TTL expiry / retention sweeps. */
  sweepMs: number;
  /** JetStream stream limits (discard old past either). */
  streamLimits: StreamLimits;
  /** Idempotency keys older than this are pruned by the sweeper. */
  idempotencyTtlSeconds: number;
  /** Open SSE streams per owner, all its keys together; one more answers 429. */
  sseMaxPerOwner: number;
  /** Bytes of row JSON per page (CRUMBS_PAGE_MAX_BYTES). */
  pageMaxBytes: number;
  /** Heavy reads per owner (CRUMBS_OWNER_READS, CRUMBS_OWNER_READ_BYTES). */
  ownerReads: OwnerReadLimits;
  /** Failed authentications per client address; undefined = off. */
  authFailRateLimit?: RateLimit;
  /** JetStream replicas of the CRUMBS stream (CRUMBS_STREAM_REPLICAS). */
  streamReplicas: number;
  /** API keys trusted this long without a database look-up (revocation still applies at once). */
  authCacheTtlMs: number;
  /** Postgres connections of this process (CRUMBS_PG_POOL); unused on PGlite. */
  pgPool: number;
}

/** Parses the environment once. Bad values throw one ConfigError naming every variable at fault. */
export function loadApiConfig(env: Record<string, string | undefined> = process.env): ApiConfig {
  // An empty variable means "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw ConfigError.fromIssues(parsed.error.issues);
  }
  const e = parsed.data;
  let retention: RetentionPolicy;
  try {
    retention = parseRetentionEnv(e.CRUMBS_RETENTION);
  } catch (err) {
    throw new ConfigError({ variable: "CRUMBS_RETENTION", message: (err as Error).message });
  }
  return {
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    pgliteDir: e.CRUMBS_PGLITE_DIR,
    natsUrl: e.NATS_URL,
    port: e.PORT,
    host: e.HOST,
    ...(e.CRUMBS_TOKEN ? { token: e.CRUMBS_TOKEN } : {}),
    auth: withSeedFile(authConfigFrom(e), e.CRUMBS_NATS_ACCOUNT_SEED_FILE),
    bodyLimitBytes: e.CRUMBS_BODY_LIMIT,
    ssePingMs: e.CRUMBS_SSE_PING_MS,
    relayPollMs: e.CRUMBS_RELAY_POLL_MS,
    relayThread: e.CRUMBS_RELAY_THREAD === "on",
    authCacheTtlMs: e.CRUMBS_AUTH_CACHE_TTL_MS,
    pgPool: e.CRUMBS_PG_POOL,
    streamReplicas: e.CRUMBS_STREAM_REPLICAS,
    retention,
    sweepMs: e.CRUMBS_SWEEP_MS,
    streamLimits: { maxAgeSeconds: e.CRUMBS_STREAM_MAX_AGE_SECONDS, maxBytes: e.CRUMBS_STREAM_MAX_BYTES },
    idempotencyTtlSeconds: e.CRUMBS_IDEMPOTENCY_TTL_SECONDS,
    sseMaxPerOwner: e.CRUMBS_SSE_MAX_PER_OWNER,
    pageMaxBytes: e.CRUMBS_PAGE_MAX_BYTES,
    ownerReads: { reads: e.CRUMBS_OWNER_READS, bytes: e.CRUMBS_OWNER_READ_BYTES },
    ...(e.CRUMBS_AUTH_FAIL_RATE_LIMIT ? { authFailRateLimit: e.CRUMBS_AUTH_FAIL_RATE_LIMIT } : {}),
  };
}

function withSeedFile(auth: AuthConfig, path: string | undefined): AuthConfig {
  if (!path) return auth;
  const name = "CRUMBS_NATS_ACCOUNT_SEED_FILE";
  if (auth.natsAccountSeed) throw new ConfigError({ variable: name, message: "set CRUMBS_NATS_ACCOUNT_SEED or CRUMBS_NATS_ACCOUNT_SEED_FILE, not both" });
  let seed: string;
  try {
    seed = readFileSync(path, "utf8").trim();
  } catch (err) {
    throw new ConfigError({ variable: name, message: `cannot read ${path}: ${(err as { code?: string }).code ?? String(err)}` });
  }
  if (!isAccountSeed(seed)) throw new ConfigError({ variable: name, message: `${path} must hold a NATS account seed (SA...)` });
  return { ...auth, natsAccountSeed: seed };
}
