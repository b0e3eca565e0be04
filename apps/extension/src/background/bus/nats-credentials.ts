import { jwtAuthenticator, type ConnectionOptions } from "nats.ws";
import { z } from "zod";
import { consumerName } from "./action-loop.ts";
import { stored } from "./store.ts";

// How the worker authenticates to NATS. A locked server (docker compose) needs per-owner
// credentials, which the API mints for the token (`POST /v1/nats/credentials`, kind extension):
// they allow this extension's durable consumer, its owner's action subjects and a per-owner inbox,
// nothing else. An API without an account seed answers 503: the open `npm start` setup, where the
// worker connects without credentials. Credentials are fetched for every connection (so a new
// worker, after MV3 stopped the old one, starts with fresh ones) and renewed before they expire.

const credentialsSchema = z.object({
  owner: z.string(),
  jwt: z.string().min(1),
  seed: z.string().min(1),
  expires_at: z.string().nullable(),
  extension: z.object({ consumer: z.string().min(1), inbox_prefix: z.string().min(1) }),
});
const errorSchema = z.object({ error: z.string(), message: z.string().optional() });

export type NatsAuth =
  | { mode: "open"; reason: string }
  | { mode: "credentials"; owner: string; jwt: string; seed: string; expiresAt?: Date; consumer: string; inboxPrefix: string };

/** What the side panel and the tests can see of it (never the secret parts), in storage. */
export const natsAuthState = stored(
  "crumbs.natsAuth",
  z.object({ mode: z.enum(["open", "credentials"]), detail: z.string().optional(), expires_at: z.string().optional(), renew_at: z.string().optional() }),
  () => ({ mode: "open" as const }),
);

export class NatsCredentialsError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "NatsCredentialsError";
  }
}

/** Asks the API for this extension's NATS credentials; a 503 (no account seed), 403 (no subscribe scope) or 404 (older API) means "connect without". */
export async function fetchNatsAuth(
  opts: { apiUrl: string; token: string; extensionId: string; ttlSeconds?: number },
  fetchFn: typeof fetch = (...a) => fetch(...a),
): Promise<NatsAuth> {
  let res: Response;
  try {
    res = await fetchFn(`${opts.apiUrl.replace(/\/+$/, "")}/v1/nats/credentials`, {
      method: "POST",
      headers: { authorization: `Bearer ${opts.token}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "extension", extension_id: opts.extensionId, ...(opts.ttlSeconds ? { ttl_seconds: opts.ttlSeconds } : {}) }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    throw new NatsCredentialsError(0, `the crumbs API at ${opts.apiUrl} is unreachable: ${e instanceof Error ? e.message : String(e)}`);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (res.ok) {
    const c = credentialsSchema.parse(body);
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
  const err = errorSchema.safeParse(body);
  const why = err.success ? (err.data.message ?? err.data.error) : `HTTP ${res.status}`;
  if (res.status === 503 || res.status === 403 || res.status === 404) return { mode: "open", reason: `no NATS credentials from the API (${why})` };
  throw new NatsCredentialsError(res.status, `the API refused NATS credentials: ${why}`);
}

/** The nats.ws options for it: the JWT, and the inbox prefix the credentials allow. */
export function natsAuthOptions(auth: NatsAuth): Partial<ConnectionOptions> {
  if (auth.mode === "open") return {};
  const seed = new TextEncoder().encode(auth.seed);
  return { authenticator: jwtAuthenticator(auth.jwt, seed), inboxPrefix: auth.inboxPrefix };
}

/** The consumer this connection may use: the one the credentials name, else the same formula. */
export const consumerFor = (auth: NatsAuth, owner: string, extensionId: string) =>
  auth.mode === "credentials" ? auth.consumer : consumerName(owner, extensionId);

/**
 * When to fetch new credentials and reconnect: a margin before the expiry (a fifth of what is
 * left, at most 5 minutes), so a slow API or a reconnect still fits; never sooner than 5 s.
 */
export function renewDelayMs(expiresAt: Date | undefined, now: Date): number | undefined {
  if (!expiresAt) return undefined;
  const left = expiresAt.getTime() - now.getTime();
  return Math.max(5_000, left - Math.min(5 * 60_000, left / 5));
}
