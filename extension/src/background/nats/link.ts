import { connect, type NatsConnection } from "nats.ws";
import { logActivity } from "../../shared/state/activity.ts";
import { apiIsAway } from "../../shared/api-client.ts";
import { backoffDelay, RECONNECT_BACKOFF } from "../backoff.ts";
import { currentConnection, type Connection } from "../connection.ts";
import { fetchNatsAuth, natsAuthOptions, natsAuthState, renewDelayMs, type NatsAuth } from "./credentials.ts";
import { setStatus } from "../../shared/state/status.ts";

// One nats.ws connection per settings: reconnects with exponential backoff and jitter (also when
// the first connect fails), reports its state to the side panel through storage, and runs the
// session (the action loop) while connected. Each connection gets fresh NATS credentials from the
// API (credentials.ts) and is replaced by a new one before they expire.

export type Session = (nc: NatsConnection, conn: Connection, auth: NatsAuth) => Promise<{ stop(): Promise<void> }>;

export interface NatsLinkHooks {
  session: Session;
  /** After a reconnect: pending work may go out now. */
  onReconnect?(): void;
  /** While a connection is open (the MV3 keepalive). */
  onOpen?(): void;
  onClose?(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class NatsLink {
  private key: string | undefined;
  private generation = 0;
  private nc: NatsConnection | undefined;
  private attempt = 0;

  constructor(private readonly hooks: NatsLinkHooks) {}

  get connected(): boolean {
    return this.nc !== undefined && !this.nc.isClosed();
  }

  /** Connects for the current settings; does nothing when that connection is already up or being made. */
  async ensure(): Promise<void> {
    const conn = await currentConnection();
    if (!conn) {
      await this.close();
      this.key = undefined;
      await setStatus("nats", "not_configured", "set the NATS WebSocket URL in the options page");
      return;
    }
    if (this.key === conn.key) return;
    await this.close();
    this.key = conn.key;
    const gen = ++this.generation;
    void this.run(conn, gen);
  }

  async close(): Promise<void> {
    this.generation++;
    this.key = undefined;
    const nc = this.nc;
    this.nc = undefined;
    // Closing a connection that already closed rejects; either way it is gone.
    await nc?.close().catch(() => {});
  }

  private async run(conn: Connection, gen: number): Promise<void> {
    while (gen === this.generation) {
      await setStatus("nats", "connecting", conn.config.natsWsUrl);
      let auth: NatsAuth;
      try {
        auth = await fetchNatsAuth({
          apiUrl: conn.config.apiUrl,
          token: conn.config.token,
          extensionId: chrome.runtime.id,
          ttlSeconds: conn.config.natsCredentialsTtl,
        });
      } catch (e) {
        // The API is where the credentials come from: unreachable, it is the API that is down.
        if (apiIsAway(e)) await setStatus("api", "error", e.message);
        await setStatus("nats", "error", `no NATS credentials: ${e instanceof Error ? e.message : String(e)}`);
        await sleep(backoffDelay(this.attempt++, RECONNECT_BACKOFF));
        continue;
      }
      if (gen !== this.generation) return;
      let nc: NatsConnection | undefined;
      try {
        nc = await connect({
          ...natsAuthOptions(auth),
          servers: conn.config.natsWsUrl,
          name: `crumbs-extension-${chrome.runtime.id}`,
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectDelayHandler: () => backoffDelay(this.attempt++, RECONNECT_BACKOFF),
          // Traffic on the socket every 20 s also keeps the MV3 worker alive (Chrome 116+).
          pingInterval: 20_000,
          maxPingOut: 3,
          timeout: 5_000,
        });
      } catch (e) {
        // Refused without credentials: say why there were none (e.g. the token lacks the subscribe scope).
        const hint = auth.mode === "open" && /authori[sz]ation/i.test(String(e)) ? `; ${auth.reason}` : "";
        await setStatus("nats", "error", `cannot connect to ${conn.config.natsWsUrl}: ${e instanceof Error ? e.message : String(e)}${hint}`);
        await sleep(backoffDelay(this.attempt++, RECONNECT_BACKOFF));
        continue;
      }
      if (gen !== this.generation) {
        // A newer run owns the link: this connection is not wanted, whether it closes cleanly or not.
        await nc.close().catch(() => {});
        return;
      }
      this.nc = nc;
      this.attempt = 0;
      const renewIn = auth.mode === "credentials" ? renewDelayMs(auth.expiresAt, new Date()) : undefined;
      let renewing = false;
      // The server drops a connection when its JWT expires: replace it first, with fresh credentials.
      const renewTimer =
        renewIn === undefined
          ? undefined
          : setTimeout(() => {
              renewing = true;
              // Already closed is fine: the run below reconnects with new credentials either way.
              void nc.close().catch(() => {});
            }, renewIn);
      await recordAuth(auth, renewIn);
      await setStatus("nats", "connected", conn.config.natsWsUrl);
      void logActivity("connection", `connected to NATS at ${conn.config.natsWsUrl}${auth.mode === "credentials" ? " with the owner's credentials" : ""}`, true);
      void this.watch(nc);
      this.hooks.onOpen?.();
      let session: { stop(): Promise<void> } | undefined;
      try {
        session = await this.hooks.session(nc, conn, auth);
      } catch (e) {
        await setStatus("nats", "error", `action subscription failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      await nc.closed();
      clearTimeout(renewTimer);
      await session?.stop().catch((e: unknown) => void logActivity("error", `stopping the action subscription failed: ${e instanceof Error ? e.message : String(e)}`, false));
      this.hooks.onClose?.();
      if (this.nc === nc) this.nc = undefined;
      if (gen !== this.generation) return;
      if (renewing) {
        void logActivity("connection", "renewing the NATS credentials", true);
        continue;
      }
      await setStatus("nats", "disconnected", "connection closed; reconnecting");
      await sleep(backoffDelay(this.attempt++, RECONNECT_BACKOFF));
    }
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (nc !== this.nc) return;
      if (s.type === "error" && /authentication expired|authorization violation/i.test(String(s.data))) {
        // Its credentials are no longer good (expired while the timer could not run): a new connection fetches new ones.
        // Already closed is fine: the run reconnects with new credentials either way.
        void nc.close().catch(() => {});
      } else if (s.type === "disconnect") {
        await setStatus("nats", "disconnected", "lost the NATS connection; reconnecting");
        void logActivity("connection", "NATS connection lost; reconnecting", false);
      } else if (s.type === "reconnect") {
        this.attempt = 0;
        await setStatus("nats", "connected", String(s.data));
        void logActivity("connection", "reconnected to NATS", true);
        this.hooks.onReconnect?.();
      }
    }
  }
}

function recordAuth(auth: NatsAuth, renewIn: number | undefined): Promise<unknown> {
  const value =
    auth.mode === "open"
      ? { mode: auth.mode, detail: auth.reason }
      : {
          mode: auth.mode,
          detail: `owner ${auth.owner}, consumer ${auth.consumer}`,
          ...(auth.expiresAt ? { expires_at: auth.expiresAt.toISOString() } : {}),
          ...(renewIn !== undefined ? { renew_at: new Date(Date.now() + renewIn).toISOString() } : {}),
        };
  // Shown on the options page only; the next connection writes it again, a lost write must not stop the link.
  return natsAuthState.set(value).catch(() => {});
}
