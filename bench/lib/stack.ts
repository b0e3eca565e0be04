import { NatsServer, createTestDatabase, type TestDatabase } from "@crumbs/testkit";
import { startApiProcess, type ApiProcess } from "./api-process.ts";
import { HttpClient } from "./http.ts";

export const TOKEN = "bench-token-0123456789";

export interface BenchStack {
  nats: NatsServer;
  db: TestDatabase;
  api: ApiProcess;
  http: HttpClient;
  close(): Promise<void>;
}

/** A fresh database on the local Postgres, its own nats-server, and the API in a child process. */
export async function startStack(opts: { relayPollMs?: number; sockets?: number; env?: Record<string, string> } = {}): Promise<BenchStack> {
  // websocket: true sidesteps the testkit port parsing of older versions; it costs nothing.
  const [nats, db] = await Promise.all([NatsServer.start({ websocket: true }), createTestDatabase("crumbs_bench")]);
  let api: ApiProcess;
  try {
    api = await startApiProcess({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      CRUMBS_TOKEN: TOKEN,
      CRUMBS_RELAY_POLL_MS: String(opts.relayPollMs ?? 1_000),
      ...opts.env,
    });
  } catch (err) {
    await nats.dispose();
    await db.drop();
    throw err;
  }
  const http = new HttpClient(api.url, TOKEN, opts.sockets ?? 32);
  return {
    nats,
    db,
    api,
    http,
    async close() {
      http.close();
      await api.close().catch(() => {});
      await nats.dispose().catch(() => {});
      await db.drop().catch(() => {});
    },
  };
}
