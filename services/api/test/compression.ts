import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../src/db/database.ts";

/**
 * True when the server can compress with lz4. Setting the default for this statement alone
 * validates the name (a build without lz4 refuses it) and leaves nothing behind on the connection.
 */
export function serverHasLz4(db: Db): Promise<boolean> {
  return db.execute(sql`select set_config('default_toast_compression', 'lz4', true)`).then(
    () => true,
    () => false,
  );
}

/** Each column's compression as pg_attribute has it: 'l' for lz4, '' for the server's default (pglz). */
export async function columnCompression(db: Db, columns: readonly [table: string, column: string][]) {
  const rows = rowsOf<{ col: string; method: string }>(
    await db.execute(sql`
      select attrelid::regclass::text || '.' || attname as col, attcompression::text as method from pg_attribute
      where not attisdropped and (attrelid::regclass::text, attname::text) in (
        select t, c from jsonb_to_recordset(${JSON.stringify(columns.map(([t, c]) => ({ t, c })))}::jsonb) as x(t text, c text))
      order by col`),
  );
  return rows;
}
