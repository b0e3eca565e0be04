import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/database.ts";
import type { RetentionRule } from "./policy.ts";

/** Where a walk of one schema's history stopped: the last row examined, in (breadcrumb, seq) order. */
export interface PruneCursor {
  breadcrumbId: string;
  seq: number;
}

export interface PruneBatch {
  /** History rows deleted by this batch. */
  deleted: number;
  /** Pass as `after` to go on; null once the walk has reached the schema's last row. */
  next: PruneCursor | null;
}

/**
 * Examines the next `scan` history rows of one schema after `after`, in the order of
 * history_schema_breadcrumb_idx (schema, breadcrumb, seq), and deletes those outside the rule.
 * Per breadcrumb, the newest `maxVersions` rows stay, and rows older than `maxAgeSeconds` go
 * except the newest one (so `/history` of a quiet breadcrumb is never empty). A row whose event
 * is still waiting in the outbox is never touched: the relay must publish it first; nor a parked
 * one (it waits for a retry).
 *
 * Why a walk: ranking every row of the schema (a window function over all of its history) cost
 * each batch the whole schema, and at 100,000 history rows per schema one batch ran past the
 * 10 s statement timeout. Here a batch reads `scan` index entries and, per row, at most
 * `maxVersions` entries of history_breadcrumb_idx (is there that many newer rows?), whatever the
 * table's size. A row the walk passed becomes a victim only when newer versions arrive; the next
 * walk from the start takes it.
 */
export async function pruneSchemaHistory(
  db: Db,
  schemaName: string,
  rule: RetentionRule,
  opts: { scan: number; after?: PruneCursor | undefined },
): Promise<PruneBatch> {
  const maxVersions = rule.maxVersions ?? null;
  const maxAge = rule.maxAgeSeconds ?? null;
  if (maxVersions === null && maxAge === null) return { deleted: 0, next: null };
  const after = opts.after
    ? sql`AND (h.schema_name, h.breadcrumb_id, h.seq) > (${schemaName}, ${opts.after.breadcrumbId}::uuid, ${opts.after.seq}::bigint)`
    : sql``;
  return db.transaction(async (tx) => {
    const window = rowsOf<{ seq: string; breadcrumb_id: string; victim: boolean }>(
      await tx.execute(sql`
        WITH w AS (
          SELECT h.seq, h.breadcrumb_id, h.at
          FROM breadcrumb_history h
          WHERE h.schema_name = ${schemaName} ${after}
          ORDER BY h.schema_name, h.breadcrumb_id, h.seq
          LIMIT ${opts.scan}
        )
        SELECT w.seq::text AS seq, w.breadcrumb_id::text AS breadcrumb_id,
          (
            NOT EXISTS (SELECT 1 FROM outbox o WHERE o.seq = w.seq)
            AND NOT EXISTS (SELECT 1 FROM outbox_parked p WHERE p.seq = w.seq)
            AND (
              (${maxVersions}::int IS NOT NULL AND EXISTS (
                SELECT 1 FROM breadcrumb_history n
                WHERE n.breadcrumb_id = w.breadcrumb_id AND n.seq > w.seq
                ORDER BY n.breadcrumb_id, n.seq
                OFFSET greatest(coalesce(${maxVersions}::int, 1) - 1, 0) LIMIT 1))
              OR (${maxAge}::int IS NOT NULL AND w.at < now() - make_interval(secs => ${maxAge}::int) AND EXISTS (
                SELECT 1 FROM breadcrumb_history n WHERE n.breadcrumb_id = w.breadcrumb_id AND n.seq > w.seq))
            )
          ) AS victim
        FROM w
        ORDER BY w.breadcrumb_id, w.seq`),
    );
    const last = window.at(-1);
    const next = window.length < opts.scan || !last ? null : { breadcrumbId: last.breadcrumb_id, seq: Number(last.seq) };
    const victims = window.filter((r) => r.victim).map((r) => Number(r.seq));
    if (victims.length === 0) return { deleted: 0, next };
    const list = sql`(SELECT jsonb_array_elements_text(${JSON.stringify(victims)}::jsonb)::bigint)`;
    const deleted = await tx.execute(sql`DELETE FROM breadcrumb_history WHERE seq IN ${list} RETURNING seq`);
    return { deleted: rowsOf(deleted).length, next };
  });
}
