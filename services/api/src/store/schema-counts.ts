import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Executor } from "../db/database.ts";

/**
 * Counts per schema (GET /v1/stats/schemas) kept with the write instead of counted at read time:
 * a grouped count over an owner's 100,000 rows took 353 ms, and grows with the owner's rows.
 *
 * `countCte` is one more CTE of the write's one statement (store/write-statement.ts, which expiry
 * uses too): +1 on `created`, -1 on `deleted`, nothing on
 * `updated` (a PATCH never changes the schema). `after` must name the CTE that holds the owner's
 * head row lock (`s`), so the counts row is locked after it, in the one order every writer of the
 * owner uses: two writes never wait on each other in opposite orders.
 */
export function countCte(type: SQL, rowSource: SQL, after: SQL): SQL {
  return sql`
    INSERT INTO schema_counts AS sc (owner, schema_name, live)
    SELECT r.owner, r.schema_name, CASE WHEN ${type} = 'created' THEN 1 ELSE -1 END
    FROM (${rowSource}) r, ${after}
    WHERE ${type} <> 'updated'
    ON CONFLICT (owner, schema_name) DO UPDATE SET live = sc.live + excluded.live`;
}

export interface SchemaCount {
  schema_name: string;
  count: number;
}

/**
 * The owner's live breadcrumbs per schema: the kept counts less the rows whose `expires_at` has
 * passed but which the sweeper has not deleted yet (found through the partial index on expires_at,
 * so this reads the owner's count rows and the sweeper's backlog, never the owner's rows).
 */
export async function countBySchema(db: Executor, owner: string): Promise<SchemaCount[]> {
  const rows = rowsOf<{ schema_name: string; count: string }>(
    await db.execute(sql`
      SELECT c.schema_name, (c.live - coalesce(x.n, 0))::text AS count
      FROM schema_counts c
      LEFT JOIN (
        SELECT schema_name, count(*) AS n FROM breadcrumbs
        WHERE expires_at IS NOT NULL AND expires_at <= now() AND owner = ${owner}
        GROUP BY schema_name
      ) x ON x.schema_name = c.schema_name
      WHERE c.owner = ${owner} AND c.live - coalesce(x.n, 0) > 0
      ORDER BY c.schema_name`),
  );
  return rows.map((r) => ({ schema_name: r.schema_name, count: Number(r.count) }));
}
