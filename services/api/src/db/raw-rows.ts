import type { SQL } from "drizzle-orm";
import { rowsOf, type Executor } from "./database.ts";

/** A column's value as the bytes Postgres sent it (its text form), or null for SQL NULL. */
export type RawValue = Buffer | null;

interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): { raw(): Promise<RawValue[][]> };
}

/** What a drizzle database or transaction holds (not in drizzle's public types). */
interface SessionOf {
  dialect?: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  session?: { client?: Partial<PostgresJsClient>; logger?: { logQuery(query: string, params: unknown[]): void } };
}

/**
 * Runs `query` and gives each row's columns, in select order, as the bytes Postgres sent: a text
 * column passed on untouched (a page of event JSON) is never decoded into a JS string and encoded
 * again. On a page of 1,000 events of 1.5 KB, decoding, joining, measuring (Buffer.byteLength) and
 * encoding the page's text again took the API's main thread more than half of its busy time per
 * page. On postgres-js (a database or a transaction) the statement is prepared once per connection
 * and logged through drizzle's logger like any other; elsewhere (PGlite) the values drizzle parsed
 * are turned back into their text's bytes.
 */
export async function rawRows(db: Executor, query: SQL): Promise<RawValue[][]> {
  const { dialect, session } = db as unknown as SessionOf;
  const client = session?.client;
  if (dialect && typeof client?.unsafe === "function") {
    const q = dialect.sqlToQuery(query);
    session?.logger?.logQuery(q.sql, q.params);
    return await (client as PostgresJsClient).unsafe(q.sql, q.params, { prepare: true }).raw();
  }
  return rowsOf<Record<string, unknown>>(await db.execute(query)).map((row) => Object.values(row).map(textBytes));
}

/** A value drizzle parsed, as the bytes of Postgres's text form for the types a raw read selects. */
function textBytes(v: unknown): RawValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return Buffer.from(v ? "t" : "f");
  return Buffer.from(typeof v === "string" ? v : String(v));
}

/** A raw integer column (bigint, int) as a number. */
export const rawNumber = (v: RawValue): number | null => (v === null ? null : Number(v.toString("latin1")));

/** A raw boolean column. */
export const rawBoolean = (v: RawValue): boolean => v !== null && v[0] === 0x74; // "t"
