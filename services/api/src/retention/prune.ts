import { sql } from "drizzle-orm";
import { rowsOf, type Database } from "../db/database.ts";
import type { RetentionRule } from "./policy.ts";

/**
 * Deletes at most `limit` history rows of one schema that fall outside the
 * rule, oldest seq first, and returns how many went. Per breadcrumb, the
 * newest `maxVersions` rows stay, and rows older than `maxAgeSeconds` go
 * except the newest one (so `/history` of a quiet breadcrumb is never empty).
 * A row whose event is still waiting in the outbox is never touched: the
 * relay must publish it first; nor a parked one (it waits for a retry).
 */
export async function pruneSchemaHistory(
  database: Database,
  schemaName: string,
  rule: RetentionRule,
  limit: number,
): Promise<number> {
  const maxVersions = rule.maxVersions ?? null;
  const maxAge = rule.maxAgeSeconds ?? null;
  if (maxVersions === null && maxAge === null) return 0;
  return database.db.transaction(async (tx) => {
    const victims = rowsOf<{ seq: string }>(
      await tx.execute(sql`
        SELECT r.seq::text AS seq FROM (
          SELECT h.seq, h.at,
                 row_number() OVER (PARTITION BY h.breadcrumb_id ORDER BY h.seq DESC) AS rn
          FROM breadcrumb_history h
          WHERE h.schema_name = ${schemaName}
        ) r
        WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.seq = r.seq)
          AND NOT EXISTS (SELECT 1 FROM outbox_parked p WHERE p.seq = r.seq)
          AND (
            (${maxVersions}::int IS NOT NULL AND r.rn > ${maxVersions}::int)
            OR (${maxAge}::int IS NOT NULL AND r.rn > 1 AND r.at < now() - make_interval(secs => ${maxAge}::int))
          )
        ORDER BY r.seq
        LIMIT ${limit}`),
    );
    if (victims.length === 0) return 0;
    const seqs = JSON.stringify(victims.map((v) => Number(v.seq)));
    const list = sql`(SELECT jsonb_array_elements_text(${seqs}::jsonb)::bigint)`;
    const deleted = await tx.execute(sql`DELETE FROM breadcrumb_history WHERE seq IN ${list} RETURNING seq`);
    return rowsOf(deleted).length;
  });
}
