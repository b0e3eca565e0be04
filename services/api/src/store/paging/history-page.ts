import { and, gt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/database.ts";
import { rawBoolean, rawNumber, rawRows } from "../../db/raw-rows.ts";
import { HISTORY_ORDER, orderByKeys } from "../../db/read-order.ts";
import { breadcrumbHistory as h } from "../../db/schema.ts";
import type { PageBudget } from "./page-budget.ts";
import { INLINE_JSON_BYTES } from "./sized-read.ts";
import { nextLargeSized, stepOutcome, type StepRow } from "./history-step.ts";
import { eventJsonOf } from "../event-json.ts";

/** A history row on a page: its seq and event type, and its event's JSON text. */
export interface HistoryPageRow {
  seq: number;
  event: "created" | "updated" | "deleted";
  /** The event's JSON (the contract's event body), as the UTF-8 bytes Postgres sent. */
  json: Buffer;
}

/**
 * The event's JSON text: kept with the row since the write statement stored it (migration 0012),
 * built by the same SQL function for rows written before. Sending the kept text skips jsonb's text
 * conversion, about 55% of Postgres's time per page of 1.3 KB events (and, before it, building
 * the text in JS cost the API's main thread more than the rest of the page).
 */
const EVENT_JSON = sql.raw(eventJsonOf());

/**
 * One step of a page as ONE statement: the next `wanted + 1` rows after `after`, each sized, the
 * byte cut made in Postgres, and only the rows that fit converted to text and sent, with the first
 * row that does not (without its text) to say why the step ended. Sizing is cheap for an event's
 * kept text (its length) and for a row stored inline (its stored size); a larger row without kept
 * text costs Postgres the text conversion, so only the first `large` of those are sized and the
 * next one ends the step unsized.
 *
 * Before, a page was a size probe and a fetch by a list of keys, twice per page of small rows (a
 * first probe of 5): four round trips, 1,000 bound parameters and a key lookup per row; 8-9k
 * events/s against 21-26k/s for this statement on the same 100,000 rows of 1.3 KB.
 */
function stepStatement(where: SQL[], after: number | undefined, s: { wanted: number; large: number; left: number; empty: boolean }): SQL {
  const filter = and(...where, ...(after !== undefined ? [gt(h.seq, after)] : []));
  return sql`
    select seq, bytes, fits, event, case when fits then ${EVENT_JSON} end as json
    from (
      select *, (sized = rn and rn <= ${s.wanted} and (upto <= ${s.left} or (rn = 1 and ${s.empty}::boolean))) as fits,
             lag(sized = rn and rn <= ${s.wanted} and (upto <= ${s.left} or (rn = 1 and ${s.empty}::boolean)), 1, true) over w as prev_fits
      from (
        select *, sum(bytes) over w as upto, count(bytes) over w as sized, row_number() over w as rn
        from (
          select *, case when kept is not null then kept
                         when stored < ${INLINE_JSON_BYTES} then stored
                         when count(*) filter (where kept is null and stored >= ${INLINE_JSON_BYTES}) over w <= ${s.large} then octet_length(breadcrumb::text)
                    end as bytes
          from (
            select ${h.seq} as seq, ${h.event} as event, ${h.breadcrumb_id} as breadcrumb_id, ${h.owner} as owner,
                   ${h.schema_name} as schema_name, ${h.version} as version, ${h.at} as at, ${h.breadcrumb} as breadcrumb, ${h.changed} as changed,
                   ${h.event_json} as event_json, octet_length(${h.event_json}) as kept, pg_column_size(${h.breadcrumb}) as stored
            from ${h} where ${filter}
            order by ${sql.join(orderByKeys(h, HISTORY_ORDER), sql`, `)}
            limit ${s.wanted + 1}
          ) candidates
          window w as (order by seq rows unbounded preceding)
        ) sized
        window w as (order by seq rows unbounded preceding)
      ) summed
      window w as (order by seq rows unbounded preceding)
    ) cut
    where fits or prev_fits
    order by seq`;
}

/**
 * Reads one page of history in seq order under `where` (an owner's events, one breadcrumb's
 * history): as many rows as `budget` holds, handed to `onRow` in order (false ends the page).
 * A page of rows stored inline is one statement; rows too large to size cheaply take a statement
 * per few of them (history-step.ts). `stepRows` caps the rows one statement sends, for a caller
 * that may stop early (a selector filtering in JS). Returns whether rows follow the last one handed over.
 */
export async function readHistoryPage(
  db: Executor,
  where: SQL[],
  budget: PageBudget,
  after: number | undefined,
  onRow: (row: HistoryPageRow) => boolean | Promise<boolean>,
  opts: { stepRows?: number } = {},
): Promise<{ more: boolean }> {
  let cursor = after;
  const large = { rows: 0, bytes: 0 };
  for (;;) {
    const remaining = budget.limits.rows - budget.rows;
    const wanted = Math.min(remaining, opts.stepRows ?? Infinity);
    if (wanted <= 0 || budget.bytes >= budget.limits.bytes) return { more: true };
    const left = budget.limits.bytes - budget.bytes;
    // Columns in select order: seq, bytes, fits, event, json (history-page's statement).
    const raw = await rawRows(db, stepStatement(where, cursor, { wanted, large: nextLargeSized(large, left), left, empty: budget.rows === 0 }));
    const rows: StepRow[] = raw.map((r) => ({ bytes: rawNumber(r[1] ?? null), fits: rawBoolean(r[2] ?? null) }));
    const fitting = raw.filter((_, i) => rows[i]!.fits);
    // The statement made the cut; the budget counts what was taken by the same rule.
    budget.fit(fitting.map((r) => rawNumber(r[1] ?? null)!));
    for (const [i, r] of fitting.entries()) {
      const bytes = rawNumber(r[1] ?? null)!;
      if (bytes >= INLINE_JSON_BYTES) {
        large.rows++;
        large.bytes += bytes;
      }
      cursor = rawNumber(r[0] ?? null)!;
      const row: HistoryPageRow = { seq: cursor, event: r[3]!.toString() as HistoryPageRow["event"], json: r[4]! };
      if (!(await onRow(row))) return { more: i < fitting.length - 1 || raw.length > fitting.length };
    }
    const outcome = stepOutcome(rows, { asked: wanted, capped: wanted < remaining });
    if (outcome !== "continue") return { more: outcome === "more" };
  }
}
