import { asc, inArray, lte, sql } from "drizzle-orm";
import { breadcrumbs } from "../db/schema.ts";
import { breadcrumbFromRow, iso } from "./breadcrumb-json.ts";
import { recordChange } from "./record-change.ts";
import type { StoreDeps } from "./store-deps.ts";

/**
 * Deletes up to `limit` breadcrumbs whose `expires_at` has passed, each with a
 * `deleted` event (history + outbox) carrying its last version, exactly as a
 * DELETE would. Readers already treat them as gone; this makes it official so
 * subscribers hear about it and the key is free again.
 * Returns how many expired. `FOR UPDATE SKIP LOCKED` lets replicas sweep at once.
 */
export async function expireDue(deps: StoreDeps, limit: number): Promise<number> {
  const owners = new Set<string>();
  const n = await deps.database.db.transaction(async (tx) => {
    const due = tx
      .select({ id: breadcrumbs.id })
      .from(breadcrumbs)
      .where(lte(breadcrumbs.expires_at, sql`now()`))
      .orderBy(asc(breadcrumbs.expires_at))
      .limit(limit)
      .for("update", { skipLocked: true });
    const rows = await tx.delete(breadcrumbs).where(inArray(breadcrumbs.id, due)).returning();
    // Owner by owner (each owner's commit lock is taken once, in one order: two sweepers never
    // deadlock), each owner's rows in expiry order.
    rows.sort(
      (a, b) =>
        (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0) ||
        (a.expires_at?.getTime() ?? 0) - (b.expires_at?.getTime() ?? 0),
    );
    const at = iso(deps.now());
    for (const row of rows) {
      await recordChange(tx, "deleted", breadcrumbFromRow(row), at);
      owners.add(row.owner);
    }
    return rows.length;
  });
  for (const owner of owners) deps.onCommitted?.(owner);
  return n;
}
