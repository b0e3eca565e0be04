import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "../db/database.ts";
import { HISTORY_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbHistory } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";

export interface HistoryItem extends Record<string, unknown> {
  seq: number;
  event: "created" | "updated" | "deleted";
}

/** Every version of one breadcrumb, oldest first, also after it was deleted. */
export async function listHistory(
  db: Executor,
  owner: string,
  id: string,
  q: { limit: number; cursor?: string },
): Promise<{ items: HistoryItem[]; next_cursor: string | null }> {
  const where = [eq(breadcrumbHistory.breadcrumb_id, id), eq(breadcrumbHistory.owner, owner)];
  if (q.cursor) where.push(gt(breadcrumbHistory.seq, decodeCursor(q.cursor, ["number"])[0] as number));
  const rows = await db
    .select({ seq: breadcrumbHistory.seq, event: breadcrumbHistory.event, breadcrumb: breadcrumbHistory.breadcrumb })
    .from(breadcrumbHistory)
    .where(and(...where))
    .orderBy(...orderByKeys(breadcrumbHistory, HISTORY_ORDER))
    .limit(q.limit + 1);
  if (rows.length === 0 && !q.cursor) throw new NotFoundError(`breadcrumb ${id} not found`);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({ ...r.breadcrumb, seq: Number(r.seq), event: r.event })),
    next_cursor: rows.length > q.limit && last ? encodeCursor([Number(last.seq)]) : null,
  };
}
