import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Breadcrumb } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
import { afterKeys, BREADCRUMB_ORDER, orderByKeys } from "../db/read-order.ts";
import { breadcrumbs, type BreadcrumbRow } from "../db/schema.ts";
import { breadcrumbFromRow, iso } from "./breadcrumb-json.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { notExpired } from "./read.ts";
import { RowPacer } from "./work.ts";
import { needsPostFilter, selectorPrefilter, type SelectorFilter } from "./selector-sql.ts";
import { textArray } from "./sql-helpers.ts";
import { alignTo } from "./paging/align.ts";
import { DEFAULT_PAGE_MAX_BYTES, PageBudget } from "./paging/page-budget.ts";
import { jsonBytes, readSized } from "./paging/sized-read.ts";

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
  /** Bytes of breadcrumb context per page (CRUMBS_PAGE_MAX_BYTES); DEFAULT_PAGE_MAX_BYTES when absent. */
  maxBytes?: number;
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

/**
 * Most recently updated first; the cursor is (updated_at, id) of the last row examined. A page
 * stops at `limit`, LIST_SCAN_BOUND rows examined or the byte budget (paging/page-budget.ts).
 */
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

  const after = q.cursor ? (decodeCursor(q.cursor, ["string", "string"]) as [string, string]) : undefined;
  const items: Breadcrumb[] = [];
  const pacer = q.pacer ?? new RowPacer();
  const budget = new PageBudget({ rows: postFilter ? Math.max(q.limit, LIST_SCAN_BOUND) : q.limit, bytes: q.maxBytes ?? DEFAULT_PAGE_MAX_BYTES });
  let last = after;
  const { more } = await readSized<[string, string], BreadcrumbRow>(budget, after, {
    probe: async (from, n) =>
      (
        await db
          .select({ updated_at: breadcrumbs.updated_at, id: breadcrumbs.id, bytes: sql<number>`${jsonBytes(breadcrumbs.context)} + coalesce(${jsonBytes(breadcrumbs.llm_hints)}, 0)` })
          .from(breadcrumbs)
          .where(and(...where, ...(from ? [afterKeys(breadcrumbs, BREADCRUMB_ORDER, [sql`${from[0]}::timestamptz`, sql`${from[1]}::uuid`])] : [])))
          .orderBy(...orderByKeys(breadcrumbs, BREADCRUMB_ORDER))
          .limit(n)
      ).map((r) => ({ key: [iso(r.updated_at), r.id] as [string, string], bytes: Number(r.bytes) })),
    fetch: async (keys) =>
      alignTo(
        keys,
        await db
          .select()
          .from(breadcrumbs)
          .where(and(eq(breadcrumbs.owner, owner), inArray(breadcrumbs.id, keys.map((k) => k[1])))),
        (r) => r.id,
        (k) => k[1],
      ),
    onRow: async (row, key) => {
      last = key;
      const b = breadcrumbFromRow(row);
      if (postFilter) {
        const hit = postFilter.matches(b, pacer.row());
        await pacer.breathe();
        if (!hit) return true;
      }
      items.push(b);
      return items.length < q.limit;
    },
  });
  return { items, next_cursor: more && last ? encodeCursor(last) : null };
}

/** A LIKE pattern for a plain substring: the search text's own `%`, `_` and `\\` match themselves. */
export function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
