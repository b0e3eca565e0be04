import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PageBudget } from "./page-budget.ts";

/** A row's key (its cursor) and the size of its JSON, from the sizing query. */
export interface Sized<K> {
  key: K;
  bytes: number;
}

/** Stored sizes under this are values kept inline (under the 2 KB TOAST threshold): sized by their stored size. */
export const INLINE_JSON_BYTES = 2_000;

/**
 * The size of a JSON column's text without sending it: a value stored inline (under the 2 KB
 * TOAST threshold) is measured by its stored size, which is cheap; only larger ones are converted
 * to text in Postgres, and only for the rows a probe looks at.
 */
export function jsonBytes(column: SQLWrapper): SQL<number> {
  return sql<number>`(case when pg_column_size(${column}) < ${INLINE_JSON_BYTES} then pg_column_size(${column}) else octet_length(${column}::text) end)::int`;
}

export interface SizedReadSteps<K, R> {
  /** At most `n` rows after `after` in page order: keys and sizes only. */
  probe(after: K | undefined, n: number): Promise<Sized<K>[]>;
  /** The whole rows of these keys, one per key in the same order; undefined for a row gone meanwhile. */
  fetch(keys: K[]): Promise<(R | undefined)[]>;
  /** Called per row in order; false ends the page after this row. */
  onRow(row: R, key: K): boolean | Promise<boolean>;
}

/**
 * Reads one page in small keyset batches: size the next rows, fetch only those that fit the
 * budget, hand them over one by one. Node never holds more than one page of rows, and Postgres
 * never converts more than one probe of rows it will not send. Returns whether rows follow the
 * last one handed over (the caller's cursor then continues the next page).
 */
export async function readSized<K, R>(budget: PageBudget, after: K | undefined, steps: SizedReadSteps<K, R>): Promise<{ more: boolean }> {
  let cursor = after;
  for (;;) {
    const asked = budget.nextProbe();
    if (asked === 0) return { more: true };
    const sized = await steps.probe(cursor, asked);
    const fits = budget.fit(sized.map((s) => s.bytes));
    const keys = sized.slice(0, fits).map((s) => s.key);
    const rows = keys.length ? await steps.fetch(keys) : [];
    for (const [i, key] of keys.entries()) {
      cursor = key;
      const row = rows[i];
      if (row === undefined) continue;
      if (!(await steps.onRow(row, key))) return { more: i < keys.length - 1 || sized.length > fits || sized.length === asked };
    }
    if (fits < sized.length) return { more: true };
    if (sized.length < asked) return { more: false };
  }
}
