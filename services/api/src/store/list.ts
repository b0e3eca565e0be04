import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Breadcrumb } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
import { afterKeys, BREADCRUMB_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbs } from "../db/schema.ts";
import { breadcrumbFromRow, iso } from "./breadcrumb-json.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { notExpired } from "./read.ts";
import { RowPacer } from "./work.ts";
import { needsPostFilter, selectorPrefilter, type SelectorFilter } from "./selector-sql.ts";
import { textArray } from "./sql-helpers.ts";

export interface ListQuery {
  schema_name?: string;
  tags?: string[];
  any_tags?: string[];
  key?: string;
  /** Case-insensitive substring of the title. */
  title?: string;
  selector?: SelectorFilter;
  limit: number;
  cursor?: string;
  /** The request's work budget and pacing (a fresh one when absent). */
  pacer?: RowPacer;
}

export interface ListPage {
  items: Breadcrumb[];
  next_cursor: string | null;
}

/**
 * Rows examined per request when a selector filters in JS. Past it the page
 * comes back short, but always with a next_cursor, so a client keeps paging
 * instead of believing it saw everything.
 */
export const LIST_SCAN_BOUND = 5_000;

/** Most recently updated first; the cursor is (updated_at, id) of the last row examined. */
export async function listBreadcrumbs(db: Executor, owner: string, q: ListQuery): Promise<ListPage> {
  const where: SQL[] = [eq(breadcrumbs.owner, owner)];
  const live = notExpired();
  if (live) where.push(live);
  if (q.schema_name) where.push(eq(breadcrumbs.schema_name, q.schema_name));
  if (q.tags?.length) where.push(sql`${breadcrumbs.tags} @> ${textArray(q.tags)}`);
  if (q.any_tags?.length) where.push(sql`${breadcrumbs.tags} && ${textArray(q.any_tags)}`);
  if (q.key !== undefined) where.push(eq(breadcrumbs.key, q.key));
  if (q.title !== undefined) where.push(sql`${breadcrumbs.title} ILIKE ${likeSubstring(q.title)}`);
  if (q.selector) where.push(...selectorPrefilter(q.selector.spec, breadcrumbs));
  const postFilter = q.selector && needsPostFilter(q.selector.spec, breadcrumbs) ? q.selector : undefined;

  let after = q.cursor ? (decodeCursor(q.cursor, ["string", "string"]) as [string, string]) : undefined;
  const batchSize = postFilter ? Math.max(q.limit * 2, 100) : q.limit + 1;
  const items: Breadcrumb[] = [];
  const pacer = q.pacer ?? new RowPacer();
  let scanned = 0;
  for (;;) {
    const page = [...where];
    if (after) page.push(afterKeys(breadcrumbs, BREADCRUMB_ORDER, [sql`${after[0]}::timestamptz`, sql`${after[1]}::uuid`]));
    const rows = await db
      .select()
      .from(breadcrumbs)
      .where(and(...page))
      .orderBy(...orderByKeys(breadcrumbs, BREADCRUMB_ORDER))
      .limit(batchSize);
    for (const [i, row] of rows.entries()) {
      scanned++;
      after = [iso(row.updated_at), row.id];
      const b = breadcrumbFromRow(row);
      if (postFilter) {
        const hit = postFilter.matches(b, pacer.row());
        await pacer.breathe();
        if (!hit) continue;
      }
      items.push(b);
      if (items.length === q.limit) {
        const more = i < rows.length - 1 || rows.length === batchSize;
        return { items, next_cursor: more ? encodeCursor(after) : null };
      }
    }
    if (rows.length < batchSize) return { items, next_cursor: null };
    if (scanned >= LIST_SCAN_BOUND) return { items, next_cursor: after ? encodeCursor(after) : null };
  }
}

/** A LIKE pattern for a plain substring: the search text's own `%`, `_` and `\\` match themselves. */
export function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
