import { and, gt, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/database.ts";
import { HISTORY_ORDER, orderByKeys } from "../../db/read-order.ts";
import { breadcrumbHistory } from "../../db/schema.ts";
import { jsonBytes, type Sized } from "./sized-read.ts";

/**
 * The size probe of a history read in seq order (an owner's events, one breadcrumb's history):
 * the seqs after `after` under `where`, each with the size of its breadcrumb's JSON.
 */
export function historyProbe(db: Executor, where: SQL[]): (after: number | undefined, n: number) => Promise<Sized<number>[]> {
  return async (after, n) =>
    (
      await db
        .select({ key: breadcrumbHistory.seq, bytes: jsonBytes(breadcrumbHistory.breadcrumb) })
        .from(breadcrumbHistory)
        .where(and(...where, ...(after !== undefined ? [gt(breadcrumbHistory.seq, after)] : [])))
        .orderBy(...orderByKeys(breadcrumbHistory, HISTORY_ORDER))
        .limit(n)
    ).map((r) => ({ key: Number(r.key), bytes: Number(r.bytes) }));
}
