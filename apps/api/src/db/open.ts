import type { Database } from "./database.ts";
import { openPostgres } from "./postgres/open.ts";
import { openPglite } from "./pglite/open.ts";

export type OpenDatabaseOptions = ({ databaseUrl: string } | { pgliteDir: string }) & {
  /** Where the Postgres supervisor reports lost and regained connections. */
  log?: (msg: string, err?: unknown) => void;
};

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if ("databaseUrl" in opts) return openPostgres({ databaseUrl: opts.databaseUrl, ...(opts.log ? { log: opts.log } : {}) });
  return openPglite({ pgliteDir: opts.pgliteDir });
}

export { guardDriverFaults } from "./postgres/fault-guard.ts";
