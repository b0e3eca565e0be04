import { connect } from "nats.ws";
import { createApi } from "../shared/api-client.ts";
import { configSchema } from "../shared/state/config.ts";
import type { ConnectionTest } from "../shared/panel-messages.ts";
import { fetchNatsAuth, natsAuthOptions, type NatsAuth } from "./nats/credentials.ts";

// The options page's "Test connection": can this token list breadcrumbs, and does the NATS
// WebSocket answer with the CRUMBS stream? Runs with the settings as typed, before they are saved.
// On a locked NATS the token's own credentials cannot read the stream: there, being let in with
// them is the answer.

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function testConnection(settings: { apiUrl: string; token: string; natsWsUrl: string }): Promise<ConnectionTest> {
  const parsed = configSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = `${String(issue?.path[0] ?? "setting")} ${issue?.message ?? "is invalid"}`;
    return { api: { ok: false, detail }, nats: { ok: false, detail } };
  }
  const c = parsed.data;
  const api = await createApi({ apiUrl: c.apiUrl, token: c.token, timeoutMs: 5_000 })
    .list({ limit: 1 })
    .then(
      (items) => ({ ok: true, detail: `API answers; the token is accepted${items[0] ? ` (owner ${items[0].owner})` : ""}` }),
      (e) => ({ ok: false, detail: message(e) }),
    );
  let nats: ConnectionTest["nats"];
  // A token the API refuses still lets an open NATS be tested; a locked one then says why it refused.
  const auth: NatsAuth = await fetchNatsAuth({ apiUrl: c.apiUrl, token: c.token, extensionId: chrome.runtime.id, ttlSeconds: 60 }).catch(
    (e: unknown) => ({ mode: "open", reason: `no NATS credentials: ${message(e)}` }),
  );
  try {
    const nc = await connect({ servers: c.natsWsUrl, timeout: 4_000, reconnect: false, ...natsAuthOptions(auth) });
    try {
      if (auth.mode === "credentials") {
        return { api, nats: { ok: true, detail: `NATS accepts owner ${auth.owner}'s credentials from the API` } };
      }
      const jsm = await nc.jetstreamManager({ timeout: 3_000 });
      const info = await jsm.streams.info("CRUMBS");
      nats = { ok: true, detail: `NATS answers; stream CRUMBS has ${info.state.messages} events` };
    } catch (e) {
      nats = { ok: false, detail: `connected, but no CRUMBS stream (is the API running on this NATS?): ${message(e)}` };
    } finally {
      await nc.close().catch(() => {});
    }
  } catch (e) {
    nats = { ok: false, detail: `cannot connect to ${c.natsWsUrl}: ${message(e)}${auth.mode === "open" ? `; ${auth.reason}` : ""}` };
  }
  return { api, nats };
}
