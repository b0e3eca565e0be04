import postgres from "postgres";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { schema } from "../schema.ts";
import type { Database, Db } from "../database.ts";

/** Arbitrary constant: every crumbs process migrating the same database takes this lock. */
const MIGRATION_LOCK_KEY = 0x63_72_75_6d_62_73n; // "crumbs"

export function openPostgres(opts: { databaseUrl: string; maxConnections?: number }): Database {
  const client = postgres(opts.databaseUrl, {
    max: opts.maxConnections ?? 10,
    onnotice: () => {},
    connect_timeout: 5,
  });
  const db = drizzle({ client, schema }) as unknown as Db;
  return {
    kind: "postgres",
    db,
    async runMigrations(migrationsFolder) {
      // A session-level advisory lock needs one dedicated connection for the whole run.
      const single = postgres(opts.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
        try {
          await migrate(drizzle({ client: single }), { migrationsFolder });
        } finally {
          await single`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
        }
      } finally {
        await single.end();
      }
    },
    async listen(channel, onNotify) {
      const sub = await client.listen(channel, () => onNotify());
      return () => sub.unlisten();
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}
