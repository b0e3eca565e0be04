import { readdir } from "node:fs/promises";
import { connect, type NatsConnection } from "nats";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STREAM_NAME } from "@crumbs/schemas";
import { createTestDatabase, NatsServer, waitFor, type TestDatabase } from "@crumbs/testkit";
import { loadApiConfig } from "../src/config.ts";
import { migrationsFolder } from "../src/db/migrate.ts";
import { openDatabase } from "../src/db/open.ts";
import { rowsOf, type Database } from "../src/db/database.ts";
import { startApi, type RunningApi } from "../src/server.ts";
import { silentLogger } from "@crumbs/telemetry";

const TOKEN = "replicas-admin-token-0123456789";

/**
 * Two live API processes' worth of everything on one Postgres database and one nats-server:
 * both migrate at once, both relays drain the one outbox, both sweepers expire the same TTLs.
 * What a subscriber sees must not tell that there are two: each event once, in seq order.
 */
describe("two API replicas on one database and one nats-server", () => {
  let pg: TestDatabase;
  let natsServer: NatsServer;
  let replicas: RunningApi[] = [];
  let db: Database;
  let nc: NatsConnection;

  beforeAll(async () => {
    [pg, natsServer] = await Promise.all([createTestDatabase("crumbs_replicas"), NatsServer.start()]);
    const config = loadApiConfig({
      DATABASE_URL: pg.url,
      NATS_URL: natsServer.url,
      PORT: "0",
      HOST: "127.0.0.1",
      CRUMBS_TOKEN: TOKEN,
      CRUMBS_RELAY_POLL_MS: "200",
      CRUMBS_SWEEP_MS: "100",
    });
    // Started together: the migrations and the stream setup race each other.
    replicas = await Promise.all([0, 1].map(() => startApi({ config, logger: silentLogger })));
    db = await openDatabase({ databaseUrl: pg.url });
    nc = await connect({ servers: natsServer.url });
  }, 60_000);

  afterAll(async () => {
    await nc?.close();
    await db?.close();
    for (const r of replicas) await r.close().catch(() => {});
    await natsServer?.dispose();
    await pg?.drop();
  });

  const call = (replica: number, path: string, method = "GET", json?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${replicas[replica]!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...headers },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });

  it("both start on one database: the migrations ran once and both answer", async () => {
    const files = (await readdir(migrationsFolder)).filter((f) => f.endsWith(".sql"));
    const applied = rowsOf<{ hash: string }>(await db.db.execute(sql`select hash from drizzle.__drizzle_migrations`));
    expect(applied).toHaveLength(files.length);
    expect(new Set(applied.map((a) => a.hash)).size).toBe(files.length);
    for (const i of [0, 1]) expect((await call(i, "/readyz")).status).toBe(200);
  });

  it("writes through both replicas reach the stream once each, in seq order, TTL expiries included", async () => {
    const WRITERS = 4;
    const PER_WRITER = 40;
    const expiring: string[] = [];
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < PER_WRITER; i++) {
          const via = (w + i) % 2;
          const ttl = i % 10 === 0;
          const res = await call(via, "/v1/breadcrumbs", "POST", {
            schema_name: "test.replica.v1",
            title: `w${w}-${i}`,
            context: { w, i },
            ...(ttl ? { ttl_seconds: 1 } : {}),
          });
          expect(res.status).toBe(201);
          const { id } = (await res.json()) as { id: string };
          if (ttl) expiring.push(id);
          else {
            // Patch it through the other replica.
            const patched = await call(1 - via, `/v1/breadcrumbs/${id}`, "PATCH", { title: `w${w}-${i} v2` }, { "if-match": '"1"' });
            expect(patched.status).toBe(200);
          }
        }
      }),
    );
    // Nobody calls sweep(): the two sweepers' timers expire the TTL breadcrumbs, each once.
    await waitFor(
      async () => {
        const rows = rowsOf<{ n: string }>(
          await db.db.execute(sql`select count(*)::text as n from breadcrumb_history where event = 'deleted'`),
        );
        return Number(rows[0]?.n) === expiring.length;
      },
      { timeout: 20_000, message: `${expiring.length} TTL expiries` },
    );
    const history = rowsOf<{ seq: string; breadcrumb_id: string; event: string }>(
      await db.db.execute(sql`select seq::text as seq, breadcrumb_id::text, event from breadcrumb_history order by breadcrumb_history.seq`),
    );
    const creates = WRITERS * PER_WRITER;
    expect(history).toHaveLength(creates + (creates - expiring.length) + expiring.length);
    expect(history.filter((h) => h.event === "deleted").map((h) => h.breadcrumb_id).sort()).toEqual([...expiring].sort());

    // Both relays drained the outbox: the stream holds every event once, in seq order.
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => (await jsm.streams.info(STREAM_NAME)).state.messages === history.length, {
      timeout: 20_000,
      message: `${history.length} messages on the stream`,
    });
    const seen: number[] = [];
    for (let n = 1; n <= history.length; n++) {
      seen.push((await jsm.streams.getMessage(STREAM_NAME, { seq: n })).json<{ seq: number }>().seq);
    }
    expect(seen).toEqual(history.map((h) => Number(h.seq)));
    const [outbox] = rowsOf<{ n: string }>(
      await db.db.execute(sql`select count(*)::text as n from outbox`),
    );
    expect(outbox?.n).toBe("0");
  }, 90_000);
});
