import { eq } from "drizzle-orm";
import type { Executor } from "../db/database.ts";
import { breadcrumbHistory } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { DEFAULT_PAGE_MAX_BYTES, PageBudget } from "./paging/page-budget.ts";
import { readHistoryPage } from "./paging/history-page.ts";

export interface HistoryItem extends Record<string, unknown> {
  seq: number;
  event: "created" | "updated" | "deleted";
}

/**
 * Every version of one breadcrumb, oldest first, also after it was deleted; a page stops at `limit` or the
 * byte budget, which counts each version's event text (what Postgres sends).
 */
export async function listHistory(
  db: Executor,
  owner: string,
  id: string,
  q: { limit: number; cursor?: string; maxBytes?: number },
): Promise<{ items: HistoryItem[]; next_cursor: string | null }> {
  const where = [eq(breadcrumbHistory.breadcrumb_id, id), eq(breadcrumbHistory.owner, owner)];
  const after = q.cursor ? (decodeCursor(q.cursor, ["number"])[0] as number) : undefined;
  const budget = new PageBudget({ rows: q.limit, bytes: q.maxBytes ?? DEFAULT_PAGE_MAX_BYTES });
  const items: HistoryItem[] = [];
  let last = after;
  const { more } = await readHistoryPage(
    db,
    where,
    budget,
    after,
    (r) => {
      last = r.seq;
      // The breadcrumb as written is the event's `breadcrumb` (the history row keeps it there only, migration 0014).
      const { breadcrumb } = JSON.parse(r.json.toString()) as { breadcrumb: Record<string, unknown> };
      items.push({ ...breadcrumb, seq: r.seq, event: r.event });
      return true;
    },
  );
  if (items.length === 0 && !q.cursor) throw new NotFoundError(`breadcrumb ${id} not found`);
  return { items, next_cursor: more && last !== undefined ? encodeCursor([last]) : null };
}
