import { and, eq, gt, gte, inArray, lt, type SQL } from "drizzle-orm";
import { breadcrumbEventOf, type Breadcrumb, type BreadcrumbEvent, type EventTypeShort } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
import { HISTORY_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbHistory, type HistoryRow } from "../db/schema.ts";
import { iso } from "./breadcrumb-json.ts";
import { needsPostFilter, selectorPrefilter, type SelectorFilter } from "./selector-sql.ts";
import { RowPacer } from "./work.ts";
import { alignTo } from "./paging/align.ts";
import { DEFAULT_PAGE_MAX_BYTES, PageBudget } from "./paging/page-budget.ts";
import { jsonBytes, readSized } from "./paging/sized-read.ts";

export interface EventQuery {
  after?: number;
  since?: Date;
  until?: Date;
  selector?: SelectorFilter;
  limit: number;
  /** The request's work budget and pacing (a fresh one when absent). */
  pacer?: RowPacer;
  /** Bytes of event JSON per page (CRUMBS_PAGE_MAX_BYTES); DEFAULT_PAGE_MAX_BYTES when absent. */
  maxBytes?: number;
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

const SCAN_BOUND = 5_000;

/**
 * History of one owner in seq order (replay). Seq order is commit order, so paging by `after` never
 * skips. A page stops at `limit` events, SCAN_BOUND rows examined or the byte budget, whichever
 * comes first (paging/page-budget.ts), with `next_after` to continue.
 */
export async function listEvents(db: Executor, owner: string, q: EventQuery): Promise<EventPage> {
  const where: SQL[] = [eq(breadcrumbHistory.owner, owner)];
  if (q.since) where.push(gte(breadcrumbHistory.at, q.since));
  if (q.until) where.push(lt(breadcrumbHistory.at, q.until));
  if (q.selector) where.push(...selectorPrefilter(q.selector.spec, breadcrumbHistory));
  const postFilter = q.selector && needsPostFilter(q.selector.spec, breadcrumbHistory) ? q.selector : undefined;

  const items: BreadcrumbEvent[] = [];
  const pacer = q.pacer ?? new RowPacer();
  const budget = new PageBudget({ rows: postFilter ? Math.max(q.limit, SCAN_BOUND) : q.limit, bytes: q.maxBytes ?? DEFAULT_PAGE_MAX_BYTES });
  let last = q.after;
  const { more } = await readSized<number, HistoryRow>(budget, q.after, {
    probe: async (after, n) =>
      (
        await db
          .select({ key: breadcrumbHistory.seq, bytes: jsonBytes(breadcrumbHistory.breadcrumb) })
          .from(breadcrumbHistory)
          .where(and(...where, ...(after !== undefined ? [gt(breadcrumbHistory.seq, after)] : [])))
          .orderBy(...orderByKeys(breadcrumbHistory, HISTORY_ORDER))
          .limit(n)
      ).map((r) => ({ key: Number(r.key), bytes: Number(r.bytes) })),
    fetch: async (seqs) =>
      alignTo(
        seqs,
        await db
          .select()
          .from(breadcrumbHistory)
          .where(and(eq(breadcrumbHistory.owner, owner), inArray(breadcrumbHistory.seq, seqs))),
        (r) => String(r.seq),
        String,
      ),
    onRow: async (row, seq) => {
      last = seq;
      const event = eventFromHistory(row);
      if (postFilter) {
        const hit = postFilter.matches(event.breadcrumb as Breadcrumb, pacer.row());
        await pacer.breathe();
        if (!hit) return true;
      }
      items.push(event);
      return items.length < q.limit;
    },
  });
  return { items, next_after: last ?? null, has_more: more };
}
