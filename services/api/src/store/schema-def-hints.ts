import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/database.ts";
import { BREADCRUMB_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbs } from "../db/schema.ts";
import { notExpired } from "./read.ts";

const TTL_MS = 2_000;

/**
 * The `llm_hints` of the owner's `schema.def.v1` breadcrumb defining a schema.
 * Cached for a couple of seconds: views are read far more often than schema
 * definitions change, and a stale hint set for 2 s is harmless.
 */
export function createSchemaDefHintsLookup(db: Executor, now: () => number = Date.now) {
  const cache = new Map<string, { at: number; hints: unknown }>();
  return async function schemaDefHints(owner: string, schemaName: string): Promise<unknown> {
    const k = `${owner}\u0000${schemaName}`;
    const hit = cache.get(k);
    if (hit && now() - hit.at < TTL_MS) return hit.hints;
    const [row] = await db
      .select({ hints: sql<unknown>`${breadcrumbs.context} -> 'llm_hints'` })
      .from(breadcrumbs)
      .where(
        and(
          eq(breadcrumbs.owner, owner),
          eq(breadcrumbs.schema_name, "schema.def.v1"),
          sql`${breadcrumbs.context} ->> 'defines' = ${schemaName}`,
          notExpired(),
        ),
      )
      .orderBy(...orderByKeys(breadcrumbs, BREADCRUMB_ORDER))
      .limit(1);
    const hints = row?.hints ?? undefined;
    if (cache.size > 1_000) cache.clear();
    cache.set(k, { at: now(), hints });
    return hints;
  };
}
