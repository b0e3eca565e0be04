import { sql } from "drizzle-orm";
import { connect, type NatsConnection } from "nats";
import { createTestDatabase, NatsServer, type NatsServerOptions, type TestDatabase } from "@crumbs/testkit";
import { assembleApi, type ApiStack } from "../src/assemble.ts";
import { loadApiConfig, type ApiConfig } from "../src/config.ts";
import { rowsOf } from "../src/db/database.ts";
import { createNatsTrust, lockedServerConfig } from "../src/nats-auth/index.ts";
import { closeServer, listen } from "../src/server.ts";
import { createLogger, silentLogger } from "@crumbs/telemetry";

export const TOKEN = "test-admin-token-0123456789";

export interface TestStack extends ApiStack {
  pg: TestDatabase;
  natsServer: NatsServer;
  config: ApiConfig;
  /** app.request with the admin bearer token and a JSON content type. */
  call(path: string, init?: RequestInit & { json?: unknown; token?: string | null }): Promise<Response>;
  count(table: "breadcrumbs" | "breadcrumb_history" | "outbox" | "outbox_parked" | "idempotency_keys" | "api_keys"): Promise<number>;
  /** A plain NATS client, as any subscriber would use. */
  client(): Promise<NatsConnection>;
  /** Starts a listening server on a free port (for SSE and concurrency tests). */
  serve(): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * A stack on a locked nats-server (operator and account JWTs, as docker compose's): the API signs
 * its own user with the account seed and mints owners' credentials (`POST /v1/nats/credentials`).
 */
export function startLockedStack(env: Record<string, string> = {}, nats: NatsServerOptions = {}): Promise<TestStack> {
  const trust = createNatsTrust();
  return startStack({ CRUMBS_NATS_ACCOUNT_SEED: trust.accountSeed, ...env }, { nats: { ...nats, extraConfig: (dir) => lockedServerConfig(trust, dir) } });
}

export async function startStack(env: Record<string, string> = {}, opts: { nats?: NatsServerOptions } = {}): Promise<TestStack> {
  const pg = await createTestDatabase("crumbs_api");
  const natsServer = await NatsServer.start(opts.nats);
  const config = loadApiConfig({
    DATABASE_URL: pg.url,
    NATS_URL: natsServer.url,
    PORT: "0",
    HOST: "127.0.0.1",
    CRUMBS_TOKEN: TOKEN,
    // CRUMBS_RELAY_THREAD=off in the environment runs the whole suite with the relay on the event loop.
    ...(process.env.CRUMBS_RELAY_THREAD ? { CRUMBS_RELAY_THREAD: process.env.CRUMBS_RELAY_THREAD } : {}),
    ...env,
  });
  const stack = await assembleApi({ config, logger: process.env.CRUMBS_TEST_LOG ? createLogger({ level: "debug", format: "pretty" }) : silentLogger });
  const clients: NatsConnection[] = [];
  const servers: Awaited<ReturnType<typeof listen>>[] = [];
  return {
    ...stack,
    pg,
    natsServer,
    config,
    call(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token !== null) headers.set("authorization", `Bearer ${init.token ?? TOKEN}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return Promise.resolve(stack.app.request(path, { ...init, headers, body }));
    },
    async count(table) {
      const [row] = rowsOf<{ n: string }>(
        await stack.database.db.execute(sql`select count(*)::text as n from ${sql.identifier(table)}`),
      );
      return Number(row?.n);
    },
    async client() {
      const nc = await connect({ servers: natsServer.url });
      clients.push(nc);
      return nc;
    },
    async serve() {
      const server = await listen(stack.app.fetch, "127.0.0.1", 0);
      servers.push(server);
      const addr = server.address();
      return `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    },
    async dispose() {
      for (const s of servers) await closeServer(s);
      for (const nc of clients) await nc.close().catch(() => {});
      await stack.close();
      await natsServer.dispose();
      await pg.drop();
    },
  };
}
