import postgres from "postgres";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { schema } from "../schema.ts";
import type { Database, Db } from "../database.ts";
import { defaultLogger } from "@crumbs/telemetry";
import { DEFAULT_PG_POOL } from "./pool-size.ts";
import { PostgresSupervisor, type SupervisorOptions } from "./supervisor.ts";

/** Arbitrary constant: every crumbs process migrating the same database takes this lock. */
const MIGRATION_LOCK_KEY = 0x63_72_75_6d_62_73n; // "crumbs"

export interface OpenPostgresOptions extends Partial<Omit<SupervisorOptions, "databaseUrl">> {
  databaseUrl: string;
}

export function openPostgres(opts: OpenPostgresOptions): Database {
  const supervisor = new PostgresSupervisor({
    databaseUrl: opts.databaseUrl,
    maxConnections: opts.maxConnections ?? DEFAULT_PG_POOL,
    queryTimeoutMs: opts.queryTimeoutMs ?? 15_000,
    statementTimeoutMs: opts.statementTimeoutMs ?? 10_000,
    transactionTimeoutMs: opts.transactionTimeoutMs ?? 60_000,
    log: opts.log ?? defaultLogger().child({ name: "api" }),
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
    copyOut: (statement) => supervisor.copyOut(statement),
    close: () => supervisor.close(),
  };
}
