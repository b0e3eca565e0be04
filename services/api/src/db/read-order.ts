import { sql, type SQL } from "drizzle-orm";
import type { ExtraConfigColumn, PgColumn } from "drizzle-orm/pg-core";

/**
 * The orders reads page in, as ONE definition that both the btree indexes (db/schema.ts) and the
 * statements (store/) are rendered from, so the two cannot drift apart.
 *
 * Why the null ordering is spelt out: Postgres uses an index for an ORDER BY only when every key has
 * the index's direction AND null ordering. drizzle renders `.desc()` as `DESC NULLS LAST`, while a
 * bare `ORDER BY x DESC` means `NULLS FIRST`; the columns are NOT NULL, but the planner does not
 * reason from that. With the two differing, every list page was a scan of all the owner's rows plus
 * a sort: 375-680 ms at 100,000 rows per owner against 1.8 ms walking the index (docs/scaling.md,
 * "Reads at scale"). Every key here is therefore rendered with an explicit NULLS LAST on both sides.
 */
export type Direction = "asc" | "desc";

export interface ReadOrder<K extends string> {
  /** The order's keys, most significant first. All keys share one direction (see afterKeys). */
  readonly keys: readonly (readonly [K, Direction])[];
}

/** Breadcrumb lists: most recently updated first, the id breaking ties. */
export const BREADCRUMB_ORDER: ReadOrder<"updated_at" | "id"> = {
  keys: [
    ["updated_at", "desc"],
    ["id", "desc"],
  ],
};

/** History, events and the SSE backfill: seq order, which within one owner is commit order. */
export const HISTORY_ORDER: ReadOrder<"seq"> = { keys: [["seq", "asc"]] };

/** The index keys of `order`, for `index(...).on(prefix..., ...indexKeys(t, order))` in a table definition. */
export function indexKeys<K extends string>(
  t: Record<K, ExtraConfigColumn>,
  order: ReadOrder<K>,
): ExtraConfigColumn[] {
  return order.keys.map(([k, dir]) => {
    const column = t[k];
    return (dir === "desc" ? column.desc() : column.asc()).nullsLast() as ExtraConfigColumn;
  });
}

/** The ORDER BY of `order` on `table`'s columns: exactly the index's keys. */
export function orderByKeys<K extends string>(table: Record<K, PgColumn>, order: ReadOrder<K>): SQL[] {
  return order.keys.map(
    ([k, dir]) => sql`${table[k]} ${sql.raw(dir === "desc" ? "DESC" : "ASC")} NULLS LAST`,
  );
}

/**
 * The keyset condition "strictly after `values` in `order`": one row comparison, which the btree
 * walks as an index condition because all keys share one direction.
 */
export function afterKeys<K extends string>(
  table: Record<K, PgColumn>,
  order: ReadOrder<K>,
  values: readonly SQL[],
): SQL {
  const dirs = new Set(order.keys.map(([, d]) => d));
  if (dirs.size !== 1 || values.length !== order.keys.length)
    throw new Error("afterKeys: one direction and one value per key");
  const cols = sql.join(
    order.keys.map(([k]) => sql`${table[k]}`),
    sql`, `,
  );
  return sql`(${cols}) ${sql.raw(dirs.has("desc") ? "<" : ">")} (${sql.join([...values], sql`, `)})`;
}
