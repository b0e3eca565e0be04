import type { Database } from "./database.ts";
import { openPostgres } from "./postgres/open.ts";
import { openPglite } from "./pglite/open.ts";

export type OpenDatabaseOptions = { databaseUrl: string } | { pgliteDir: string };

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if ("databaseUrl" in opts) return openPostgres({ databaseUrl: opts.databaseUrl });
  return openPglite({ pgliteDir: opts.pgliteDir });
}

export { guardDriverFaults } from "./postgres/fault-guard.ts";
