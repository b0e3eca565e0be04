import { jwtAuthenticator, type ConnectionOptions } from "nats.ws";
import { ApiResponseError, natsCredentials } from "@crumbs/agent-sdk/http";
import * as z from "@crumbs/schemas/zod-mini";
import { httpClient } from "../../shared/api-client.ts";
import { extensionConsumerName } from "@crumbs/schemas/nats-names";
import { stored } from "../../shared/state/store.ts";

// How the worker authenticates to NATS. A locked server (docker compose) needs per-owner
// credentials, which the API mints for the token (`POST /v1/nats/credentials`, kind extension):
// they allow this extension's durable consumer, its owner's action subjects and a per-owner inbox,
// nothing else. An API without an account seed answers 503: the open `npm start` setup, where the
// worker connects without credentials. Credentials are fetched for every connection (so a new
// worker, after MV3 stopped the old one, starts with fresh ones) and renewed before they expire.

const credentialsSchema = z.object({
  owner: z.string(),
  jwt: z.string().check(z.minLength(1)),
  seed: z.string().check(z.minLength(1)),
  expires_at: z.nullable(z.string()),
  extension: z.object({ consumer: z.string().check(z.minLength(1)), inbox_prefix: z.string().check(z.minLength(1)) }),
});

export type NatsAuth =
  | { mode: "open"; reason: string }
  | { mode: "credentials"; owner: string; jwt: string; seed: string; expiresAt?: Date; consumer: string; inboxPrefix: string };

/** What the side panel and the tests can see of it (never the secret parts), in storage. */
export const natsAuthState = stored(
  "crumbs.natsAuth",
  z.object({ mode: z.enum(["open", "credentials"]), detail: z.optional(z.string()), expires_at: z.optional(z.string()), renew_at: z.optional(z.string()) }),
  () => ({ mode: "open" as const }),
);

/** Asks the API for this extension's NATS credentials; a 503 (no account seed), 403 (no subscribe scope) or 404 (older API) means "connect without". */
export async function fetchNatsAuth(
  opts: { apiUrl: string; token: string; extensionId: string; ttlSeconds?: number | undefined },
  fetchFn?: typeof fetch,
): Promise<NatsAuth> {
  let c: z.infer<typeof credentialsSchema>;
  try {
    const http = httpClient({ apiUrl: opts.apiUrl, token: opts.token, timeoutMs: 10_000, ...(fetchFn ? { fetch: fetchFn } : {}) });
    const body = { kind: "extension" as const, extension_id: opts.extensionId, ...(opts.ttlSeconds ? { ttl_seconds: opts.ttlSeconds } : {}) };
    c = await http.json(natsCredentials(body), credentialsSchema);
  } catch (e) {
    // Unreachable or no answer in time (ApiUnreachableError, ApiTimeoutError): thrown as it is, and the link retries.
    if (!(e instanceof ApiResponseError)) throw e;
    if (e.status === 503 || e.status === 403 || e.status === 404) return { mode: "open", reason: `no NATS credentials from the API (${e.message})` };
    throw new ApiResponseError(e.code, `the API refused NATS credentials: ${e.message}`, e.status, e.details);
  }
  return {
    mode: "credentials",
    owner: c.owner,
    jwt: c.jwt,
    seed: c.seed,
    ...(c.expires_at ? { expiresAt: new Date(c.expires_at) } : {}),
    consumer: c.extension.consumer,
    inboxPrefix: c.extension.inbox_prefix,
  };
}

/** The nats.ws options for it: the JWT, and the inbox prefix the credentials allow. */
export function natsAuthOptions(auth: NatsAuth): Partial<ConnectionOptions> {
  if (auth.mode === "open") return {};
  const seed = new TextEncoder().encode(auth.seed);
  return { authenticator: jwtAuthenticator(auth.jwt, seed), inboxPrefix: auth.inboxPrefix };
}

/** The consumer this connection may use: the one the credentials name, else the same formula. */
export const consumerFor = (auth: NatsAuth, owner: string, extensionId: string) =>
  auth.mode === "credentials" ? auth.consumer : extensionConsumerName(owner, extensionId);

/**
 * When to fetch new credentials and reconnect: a margin before the expiry (a fifth of what is
 * left, at most 5 minutes), so a slow API or a reconnect still fits; never sooner than 5 s.
 */
export function renewDelayMs(expiresAt: Date | undefined, now: Date): number | undefined {
  if (!expiresAt) return undefined;
  const left = expiresAt.getTime() - now.getTime();
  return Math.max(5_000, left - Math.min(5 * 60_000, left / 5));
}
