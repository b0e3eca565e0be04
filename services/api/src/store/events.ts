import { and, eq, gt, gte, lt, type SQL } from "drizzle-orm";
import { breadcrumbEventOf, type Breadcrumb, type BreadcrumbEvent, type EventTypeShort } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
import { HISTORY_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbHistory, type HistoryRow } from "../db/schema.ts";
import { iso } from "./breadcrumb-json.ts";
import { needsPostFilter, selectorPrefilter, type SelectorFilter } from "./selector-sql.ts";
import { RowPacer } from "./work.ts";

export interface EventQuery {
  after?: number;
  since?: Date;
  until?: Date;
  selector?: SelectorFilter;
  limit: number;
  /** The request's work budget and pacing (a fresh one when absent). */
  pacer?: RowPacer;
}

export interface EventPage {
  items: BreadcrumbEvent[];
  /** Pass as `after` to continue: the last seq examined (also when the selector dropped it). */
  next_after: number | null;
  has_more: boolean;
}

/** The event of a history row (the contract's one event body). */
export function eventFromHistory(row: Pick<HistoryRow, "seq" | "event" | "breadcrumb" | "at">): BreadcrumbEvent {
  return breadcrumbEventOf(Number(row.seq), row.event as EventTypeShort, row.breadcrumb as unknown as Breadcrumb, iso(row.at));
}

const SCAN_BATCH = 500;
const SCAN_BOUND = 5_000;

/** History of one owner in seq order (replay). Seq order is commit order, so paging by `after` never skips. */
export async function listEvents(db: Executor, owner: string, q: EventQuery): Promise<EventPage> {
  const where: SQL[] = [eq(breadcrumbHistory.owner, owner)];
  if (q.since) where.push(gte(breadcrumbHistory.at, q.since));
  if (q.until) where.push(lt(breadcrumbHistory.at, q.until));
  if (q.selector) where.push(...selectorPrefilter(q.selector.spec, breadcrumbHistory));
  const postFilter = q.selector && needsPostFilter(q.selector.spec, breadcrumbHistory) ? q.selector : undefined;
  const batch = postFilter ? Math.max(q.limit, SCAN_BATCH) : q.limit + 1;

  const items: BreadcrumbEvent[] = [];
  const pacer = q.pacer ?? new RowPacer();
  let cursor = q.after;
  let scanned = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(breadcrumbHistory)
      .where(and(...where, ...(cursor !== undefined ? [gt(breadcrumbHistory.seq, cursor)] : [])))
      .orderBy(...orderByKeys(breadcrumbHistory, HISTORY_ORDER))
      .limit(batch);
    for (const [i, row] of rows.entries()) {
      scanned++;
      cursor = Number(row.seq);
      const event = eventFromHistory(row);
      if (postFilter) {
        const hit = postFilter.matches(event.breadcrumb as Breadcrumb, pacer.row());
        await pacer.breathe();
        if (!hit) continue;
      }
      items.push(event);
      if (items.length === q.limit) {
        return { items, next_after: cursor, has_more: i < rows.length - 1 || rows.length === batch };
      }
    }
    if (rows.length < batch) return { items, next_after: cursor ?? null, has_more: false };
    if (scanned >= SCAN_BOUND) return { items, next_after: cursor ?? null, has_more: true };
  }
}
