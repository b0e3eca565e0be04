import { and, asc, eq, gt, gte, lt, type SQL } from "drizzle-orm";
import type { Breadcrumb, BreadcrumbEvent } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
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

/** The same JSON the relay publishes on NATS and SSE sends as `data`. */
export function eventFromHistory(row: Pick<HistoryRow, "seq" | "event" | "breadcrumb" | "at">): BreadcrumbEvent {
  const b = row.breadcrumb as unknown as Breadcrumb;
  return {
    seq: Number(row.seq),
    type: `breadcrumb.${row.event}`,
    id: b.id,
    owner: b.owner,
    schema_name: b.schema_name,
    title: b.title,
    tags: b.tags,
    version: b.version,
    at: iso(row.at),
    breadcrumb: b,
  } as BreadcrumbEvent;
}

const SCAN_BATCH = 500;
const SCAN_BOUND = 5_000;

/** History of one owner in seq order (replay). Seq order is commit order, so paging by `after` never skips. */
export async function listEvents(db: Executor, owner: string, q: EventQuery): Promise<EventPage> {
  const where: SQL[] = [eq(breadcrumbHistory.owner, owner)];
  if (q.since) where.push(gte(breadcrumbHistory.at, q.since));
  if (q.until) where.push(lt(breadcrumbHistory.at, q.until));
  if (q.selector) where.push(...selectorPrefilter(q.selector.spec, breadcrumbHistory));
  const postFilter = q.selector && needsPostFilter(q.selector.spec) ? q.selector : undefined;
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
      .orderBy(asc(breadcrumbHistory.seq))
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
