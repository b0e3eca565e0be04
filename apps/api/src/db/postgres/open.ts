import postgres from "postgres";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { schema } from "../schema.ts";
import type { Database, Db } from "../database.ts";
import { defaultLogger, logFn } from "@crumbs/telemetry";
import { PostgresSupervisor, type SupervisorOptions } from "./supervisor.ts";

/** Arbitrary constant: every crumbs process migrating the same database takes this lock. */
const MIGRATION_LOCK_KEY = 0x63_72_75_6d_62_73n; // "crumbs"

export interface OpenPostgresOptions extends Partial<Omit<SupervisorOptions, "databaseUrl">> {
  databaseUrl: string;
}

const defaultLog = (msg: string, err?: unknown) => logFn(defaultLogger().child({ name: "api" }))(msg, err);

/**
 * Connections per API process (CRUMBS_PG_POOL). Each is one statement in flight, and a write spends most of
 * its time in Postgres waiting for the WAL flush, which every commit in flight at that moment shares: with
 * fewer connections than concurrent writers, fewer commits share each flush and the rest queue behind them
 * (postgres-js pipelines them onto busy connections).
 * 16 against 10, 16 clients each its own owner, alternated write-path runs: 784 against 728 PATCH/s (mean
 * of 12 rounds each), with less CPU per write in the API and in Postgres (BENCHMARKS.md).
 */
export const DEFAULT_PG_POOL = 16;

export function openPostgres(opts: OpenPostgresOptions): Database {
  const supervisor = new PostgresSupervisor({
    databaseUrl: opts.databaseUrl,
    maxConnections: opts.maxConnections ?? DEFAULT_PG_POOL,
    queryTimeoutMs: opts.queryTimeoutMs ?? 15_000,
    statementTimeoutMs: opts.statementTimeoutMs ?? 10_000,
    transactionTimeoutMs: opts.transactionTimeoutMs ?? 60_000,
    log: opts.log ?? defaultLog,
  });
  // drizzle is built once, on the supervisor's facade: it follows every client swap.
  const db = drizzle({ client: supervisor.client as unknown as postgres.Sql, schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    async runMigrations(migrationsFolder) {
      // A session-level advisory lock needs one dedicated connection for the whole run.
      const single = postgres(opts.databaseUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
        try {
          await migrate(drizzle({ client: single }), { migrationsFolder });
        } finally {
          await single`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
        }
      } finally {
        await single.end({ timeout: 5 });
      }
    },
    listen: (channel, onNotify) => supervisor.listen(channel, onNotify),
    async ping() {
      await db.execute(sql`select 1`);
    },
    recover: (reason) => supervisor.recover(reason),
    close: () => supervisor.close(),
  };
}
