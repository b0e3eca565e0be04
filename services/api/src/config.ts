import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "./errors.ts";
import { authConfigFrom, authEnvShape, type AuthConfig } from "./http/auth-config.ts";
import { isAccountSeed } from "./nats-auth/index.ts";
import { parseRetentionEnv, type RetentionPolicy } from "./retention/policy.ts";

const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  CRUMBS_PGLITE_DIR: z.string().min(1).default(".crumbs/pg"),
  NATS_URL: z
    .string()
    .regex(/^(nats|tls|ws|wss):\/\/[^\s]+$/, "must be a nats:// URL, e.g. nats://127.0.0.1:4222")
    .default("nats://127.0.0.1:4222"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  HOST: z.string().min(1).default("0.0.0.0"),
  CRUMBS_TOKEN: z.string().min(8, "must be at least 8 characters").optional(),
  ...authEnvShape,
  /** CRUMBS_NATS_ACCOUNT_SEED from a file (docker compose's nats-init volume), read once at start. */
  CRUMBS_NATS_ACCOUNT_SEED_FILE: z.string().min(1).optional(),
  CRUMBS_BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  CRUMBS_SSE_PING_MS: z.coerce.number().int().min(10).default(15_000),
  CRUMBS_RELAY_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  CRUMBS_RETENTION: z.string().optional(),
  CRUMBS_SWEEP_MS: z.coerce.number().int().min(10).default(5_000),
  /** JetStream replicas of the CRUMBS stream: 3 on a 3-node NATS cluster (docs/scaling.md). */
  CRUMBS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** How long an authenticated API key is trusted without a database look-up; 0 turns the cache off. */
  CRUMBS_AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
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
  /** API keys, rate limits, NATS credentials (issue 6). */
  auth?: AuthConfig;
  bodyLimitBytes: number;
  ssePingMs: number;
  relayPollMs: number;
  /** History retention per schema (CRUMBS_RETENTION over the defaults). */
  retention: RetentionPolicy;
  /** Pause between TTL expiry / retention sweeps. */
  sweepMs: number;
  streamReplicas: number;
  /** API keys trusted this long without a database look-up (revocation still applies at once). */
  authCacheTtlMs: number;
}

/** Parses the environment once. A bad value throws ConfigError naming the variable. */
export function loadApiConfig(env: Record<string, string | undefined> = process.env): ApiConfig {
  // An empty variable means "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0] ?? "environment"), issue?.message ?? "invalid");
  }
  const e = parsed.data;
  let retention: RetentionPolicy;
  try {
    retention = parseRetentionEnv(e.CRUMBS_RETENTION);
  } catch (err) {
    throw new ConfigError("CRUMBS_RETENTION", (err as Error).message);
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
    authCacheTtlMs: e.CRUMBS_AUTH_CACHE_TTL_MS,
    streamReplicas: e.CRUMBS_STREAM_REPLICAS,
    retention,
    sweepMs: e.CRUMBS_SWEEP_MS,
  };
}

function withSeedFile(auth: AuthConfig, path: string | undefined): AuthConfig {
  if (!path) return auth;
  const name = "CRUMBS_NATS_ACCOUNT_SEED_FILE";
  if (auth.natsAccountSeed) throw new ConfigError(name, "set CRUMBS_NATS_ACCOUNT_SEED or CRUMBS_NATS_ACCOUNT_SEED_FILE, not both");
  let seed: string;
  try {
    seed = readFileSync(path, "utf8").trim();
  } catch (err) {
    throw new ConfigError(name, `cannot read ${path}: ${(err as { code?: string }).code ?? String(err)}`);
  }
  if (!isAccountSeed(seed)) throw new ConfigError(name, `${path} must hold a NATS account seed (SA...)`);
  return { ...auth, natsAccountSeed: seed };
}
