import { connect, credsAuthenticator, type Authenticator, type NatsConnection } from "nats";
import { natsServers } from "@crumbs/schemas";
import type { CrumbsHttp } from "./http-client.ts";
import { NATS_CONNECTION_DEFAULTS } from "./nats-connection-options.ts";

export interface TokenNatsOptions {
  /** NATS servers (comma-separated); unset: the `servers` the API sends with the credentials. */
  natsUrl?: string | undefined;
  name?: string;
  /** Lifetime asked for each credential (60-86,400 s; the API's default is 1 h). */
  ttlSeconds?: number;
  /** Clock and timers, for tests of the renewal schedule. */
  now?: () => number;
}

/** A connection on credentials minted by the API for the token's owner, renewed before they expire. */
export interface TokenNats {
  nc: NatsConnection;
  /** The token's owner: the credentials reach that owner's subjects only. */
  owner: string;
  /** When the credentials in use expire (epoch ms; undefined when they do not). */
  expiresAt(): number | undefined;
  /** Stops renewing; the connection itself is closed by its owner. */
  stop(): void;
}

/**
 * When to renew credentials valid from `now` until `expiresAt`: at four fifths of their life,
 * so a renewal that fails (the API briefly down) has a fifth of it, at least 12 s of a 60 s
 * credential, to be tried again before the server disconnects the client.
 */
export function renewDelayMs(now: number, expiresAt: number): number {
  return Math.max(1_000, Math.floor((expiresAt - now) * 0.8));
}

const RETRY_MS = 2_000;

/**
 * Connects the way `new CrumbsClient({url, token})` does without NATS credentials of its own: the
 * API mints NATS credentials for the token's owner (`POST /v1/nats/credentials`) and says where
 * NATS is (their `servers`). nats.js calls the authenticator at every (re)connect, and it
 * answers with the credentials current at that moment; before they expire new ones are fetched
 * and the client reconnects with them (subscriptions and pull consumers carry over), so the
 * server never disconnects it for an expired JWT. A failed renewal is tried again every 2 s.
 */
export async function connectWithToken(http: CrumbsHttp, opts: TokenNatsOptions = {}): Promise<TokenNats> {
  const now = opts.now ?? Date.now;
  const body = opts.ttlSeconds ? { kind: "agent" as const, ttl_seconds: opts.ttlSeconds } : { kind: "agent" as const };
  const mint = async () => {
    const c = await http.natsCredentials(body);
    return {
      auth: credsAuthenticator(new TextEncoder().encode(c.creds)),
      expiresAt: c.expires_at ? Date.parse(c.expires_at) : undefined,
      servers: c.servers,
      owner: c.owner,
    };
  };
  let current = await mint();
  const servers = opts.natsUrl ? natsServers(opts.natsUrl) : current.servers;
  if (!servers?.length) throw new Error("the API sent no NATS servers with the credentials: set NATS_URL");
  const authenticator: Authenticator = (nonce?: string) => current.auth(nonce);
  const nc = await connect({
    servers,
    name: opts.name ?? "crumbs-agent",
    ...NATS_CONNECTION_DEFAULTS,
    authenticator,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void renew(), ms);
    timer.unref?.();
  };
  const renew = async () => {
    try {
      current = await mint();
    } catch {
      schedule(RETRY_MS);
      return;
    }
    if (stopped || nc.isClosed()) return;
    // The server checks a JWT when a client connects: present the new one now.
    await nc.reconnect().catch(() => {});
    if (current.expiresAt !== undefined) schedule(renewDelayMs(now(), current.expiresAt));
  };
  if (current.expiresAt !== undefined) schedule(renewDelayMs(now(), current.expiresAt));
  void nc.closed().then(() => {
    stopped = true;
    clearTimeout(timer);
  });
  return {
    nc,
    owner: current.owner,
    expiresAt: () => current.expiresAt,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
