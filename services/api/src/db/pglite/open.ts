import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { schema } from "../schema.ts";
import type { Database, Db } from "../database.ts";

/** Embedded Postgres for `npm start` without DATABASE_URL. One process, one connection. */
export async function openPglite(opts: { pgliteDir: string }): Promise<Database> {
  await mkdir(opts.pgliteDir, { recursive: true });
  // pg_trgm: the title search's index (migrations/0008_read_indexes.sql) needs the extension loaded.
  const client = await PGlite.create(opts.pgliteDir, { extensions: { pg_trgm } });
  const pgDb = drizzle({ client, schema });
  const db = pgDb as unknown as Db;
  return {
    kind: "pglite",
    db,
    async runMigrations(migrationsFolder) {
      await migrate(pgDb, { migrationsFolder });
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.close();
    },
  };
}
