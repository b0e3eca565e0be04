import { asc, lte, sql } from "drizzle-orm";
import { breadcrumbs } from "../db/schema.ts";
import { iso } from "./breadcrumb-json.ts";
import type { StoreDeps } from "./store-deps.ts";
import { executeWrite } from "./write-statement.ts";

/**
 * Deletes up to `limit` breadcrumbs whose `expires_at` has passed, each with a `deleted` event
 * carrying its last version, through the same one-statement write as `DELETE /v1/breadcrumbs/:id`
 * (history, outbox, counts and the owner's order in one statement). Readers already treat them as
 * gone; this makes it official so subscribers hear about it and the key is free again.
 *
 * Each delete is its own statement and asks again that the row is still due: two replicas sweeping
 * at once may pick the same row, and only one of their deletes matches it, so no breadcrumb gets
 * two `deleted` events; one statement takes one owner's lock, so sweepers never deadlock.
 * Returns how many expired.
 */
export async function expireDue(deps: StoreDeps, limit: number): Promise<number> {
  const { db } = deps.database;
  const due = await db
    .select({ id: breadcrumbs.id, owner: breadcrumbs.owner })
    .from(breadcrumbs)
    .where(lte(breadcrumbs.expires_at, sql`now()`))
    .orderBy(asc(breadcrumbs.expires_at))
    .limit(limit);
  let n = 0;
  for (const { id, owner } of due) {
    const written = await executeWrite(db, {
      owner,
      type: "deleted",
      at: iso(deps.now()),
      mutation: sql`DELETE FROM breadcrumbs WHERE id = ${id}::uuid AND owner = ${owner} AND expires_at <= now()`,
    });
    if (!written) continue;
    n++;
    deps.onCommitted?.(owner, written.event);
  }
  return n;
}
