import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createTestDatabase, type TestDatabase } from "@crumbs/testkit";

/**
 * A fresh database on the local Postgres with every migration applied by psql, as the tools that
 * price the write statement need it (the API's own tables, indexes and functions); dropped again if a
 * migration fails. The caller drops it when done.
 */
export async function migratedDatabase(prefix: string): Promise<TestDatabase> {
  const db = await createTestDatabase(prefix);
  try {
    const folder = new URL("../../migrations/", import.meta.url).pathname;
    for (const f of readdirSync(folder).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort()) {
      execFileSync("psql", ["-q", "-v", "ON_ERROR_STOP=1", "-d", db.url, "-f", folder + f]);
    }
    return db;
  } catch (err) {
    await db.drop();
    throw err;
  }
}
