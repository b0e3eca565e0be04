import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { schema } from "../schema.ts";
import type { Database, Db } from "../database.ts";

/** Embedded Postgres for `npm start` without DATABASE_URL. One process, one connection. */
export async function openPglite(opts: { pgliteDir: string }): Promise<Database> {
  await mkdir(opts.pgliteDir, { recursive: true });
  const client = await PGlite.create(opts.pgliteDir);
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
