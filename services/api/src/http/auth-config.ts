import { readFileSync } from "node:fs";
import { z } from "zod";
import { natsServers } from "@crumbs/schemas";
// From trust.ts itself, not the nats-auth barrel: the barrel re-exports api-authenticator.ts,
// which reads AuthConfig from this file.
import { isAccountSeed } from "../nats-auth/trust.ts";
import { rateLimitSchema, type RateLimit } from "./rate-limit-bucket.ts";

/** The auth environment (API keys, rate limits, NATS auth: SECURITY.md), merged into config.ts's schema. */
export const authEnvShape = {
  /** Per owner, every key of an owner drawing from one bucket; see rate-limit.ts for replicas. */
  CRUMBS_RATE_LIMIT: rateLimitSchema.prefault("50:200"),
  /** CRUMBS_TOKEN is the operator's own (benches, the runner): unlimited unless set. */
  CRUMBS_ADMIN_RATE_LIMIT: rateLimitSchema.prefault("off"),
  /** The crumbs NATS account's seed (`crumbs keys nats-init`): enables POST /v1/nats/credentials and the API's own JWT user. */
  CRUMBS_NATS_ACCOUNT_SEED: z.string().refine(isAccountSeed, "must be a NATS account seed (SA...)").optional(),
  /** The NATS URLs clients are told to use with minted credentials (comma-separated); default NATS_URL. */
  CRUMBS_NATS_PUBLIC_URL: z.string().min(1).optional(),
  /** A .creds file for the API's own NATS connection (static users or a pre-minted JWT). */
  NATS_CREDS: z
    .string()
    .refine((path) => {
      try {
        readFileSync(path);
        return true;
      } catch {
        return false;
      }
    }, "must be a readable .creds file")
    .optional(),
};

type AuthEnv = z.infer<z.ZodObject<typeof authEnvShape>>;

export interface AuthConfig {
  rateLimit?: RateLimit;
  adminRateLimit?: RateLimit;
  natsAccountSeed?: string;
  natsCredsFile?: string;
  natsPublicServers?: string[];
}

export function authConfigFrom(e: AuthEnv): AuthConfig {
  return {
    ...(e.CRUMBS_RATE_LIMIT ? { rateLimit: e.CRUMBS_RATE_LIMIT } : {}),
    ...(e.CRUMBS_ADMIN_RATE_LIMIT ? { adminRateLimit: e.CRUMBS_ADMIN_RATE_LIMIT } : {}),
    ...(e.CRUMBS_NATS_ACCOUNT_SEED ? { natsAccountSeed: e.CRUMBS_NATS_ACCOUNT_SEED } : {}),
    ...(e.NATS_CREDS ? { natsCredsFile: e.NATS_CREDS } : {}),
    ...(e.CRUMBS_NATS_PUBLIC_URL ? { natsPublicServers: natsServers(e.CRUMBS_NATS_PUBLIC_URL) } : {}),
  };
}
