import type { Logger } from "@crumbs/telemetry";
import type { Database } from "./database.ts";
import { openPostgres } from "./postgres/open.ts";
import { openPglite } from "./pglite/open.ts";

export type OpenDatabaseOptions = ({ databaseUrl: string } | { pgliteDir: string }) & {
  /** Where the Postgres supervisor reports lost and regained connections. */
  log?: Logger;
  /** Postgres only: the pool's size (DEFAULT_PG_POOL when unset). */
  maxConnections?: number;
};

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if ("databaseUrl" in opts) {
    const { databaseUrl, log, maxConnections } = opts;
    return openPostgres({ databaseUrl, ...(log ? { log } : {}), ...(maxConnections !== undefined ? { maxConnections } : {}) });
  }
  return openPglite({ pgliteDir: opts.pgliteDir });
}

export { guardDriverFaults } from "./postgres/fault-guard.ts";
