import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { schema } from "./schema.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database or an open transaction: store functions accept both. */
export type Executor = Db | Tx;

/**
 * The one interface the store, relay and HTTP layer see. Each driver folder
 * (postgres/, pglite/) builds one; nothing above this file knows which it is.
 */
export interface Database {
  readonly kind: "postgres" | "pglite";
  readonly db: Db;
  /** Applies the migration folder; the postgres driver holds an advisory lock so replicas can race safely. */
  runMigrations(migrationsFolder: string): Promise<void>;
  /** LISTEN on a channel (postgres only: PGlite has a single process, so nobody else writes). */
  listen?(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Drops every connection; the next query opens fresh ones. For the process
   * guard (postgres/fault-guard.ts) after the driver's uncaught TypeError.
   */
  recover?(reason: unknown): void;
  /**
   * The output of a `COPY ... TO STDOUT` statement, read to its end (postgres only: PGlite's
   * streamed reads stay row reads). The caller bounds what it sends.
   */
  copyOut?(statement: string): Promise<Buffer>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** drizzle's `execute` returns an array on postgres-js and `{rows}` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
