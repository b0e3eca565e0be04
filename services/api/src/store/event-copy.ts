import { OWNER_PATTERN } from "@crumbs/schemas";
import type { EventPage } from "./events.ts";

/**
 * A step of a streamed answer as one `COPY ... TO STDOUT`: Postgres writes the NDJSON lines
 * itself, each row's kept event text and a newline, and the API passes the bytes on. Against the
 * same step read as rows (a statement whose driver makes an object and a Buffer per row), 0.65x
 * of the CPU for the same bytes (API 750 -> 461 ms, Postgres 520 -> 360 ms per 100,000 events of
 * 1.3 KB, bench/results/45). Pure: the statement's text and the reading of what it sent.
 *
 * CSV with a quote and a delimiter no event text holds (\x01, \x02) writes each value as it is:
 * CSV quotes a value only for those two characters, CR or LF, and the kept text (jsonb's, through
 * crumbs_event_json) never holds any of them raw. A step that did come back quoted is read again
 * as rows (`readCopyStep` answers undefined), as is one whose first row has no kept text (rows
 * written before migration 0012: sizing those costs Postgres their text, which the row read
 * bounds and this statement does not).
 */

/** What follows a step's lines when rows follow it: no event line is `-` (each starts `{"seq":`). */
const MORE = "-";
const HEAD = Buffer.from('{"seq":');
const NL = 0x0a;
const QUOTE = 0x01;

export interface CopyStepQuery {
  /** Start after this seq (exclusive); else `since`. */
  after: number | undefined;
  since: Date | undefined;
  until: Date | undefined;
  /** Events at most (1 or more). */
  rows: number;
  /** Bytes of event text at most; the first row goes whatever its size. */
  bytes: number;
}

/**
 * The COPY of one step: the next rows of `owner` after `after` (or from `since`), in seq order,
 * while they have kept text and their text stays within `bytes`, at most `rows`, then `-` when a
 * row follows (the page's `has_more`). The byte cut is the page budget's rule (PageBudget.fit),
 * made in SQL. COPY takes no bind parameters, so the values are literals: undefined for an owner
 * outside the contract's pattern, which then keeps the row read.
 */
export function copyStepStatement(owner: string, q: CopyStepQuery): string | undefined {
  if (!OWNER_PATTERN.test(owner) || !Number.isSafeInteger(q.rows) || q.rows < 1 || !Number.isSafeInteger(q.bytes)) return undefined;
  if (q.after !== undefined && !Number.isSafeInteger(q.after)) return undefined;
  const where = [`owner = '${owner}'`];
  if (q.after !== undefined) where.push(`seq > ${q.after}`);
  else if (q.since) where.push(`at >= '${q.since.toISOString()}'::timestamptz`);
  if (q.until) where.push(`at < '${q.until.toISOString()}'::timestamptz`);
  const fits = `(rn <= ${q.rows} and unkept = 0 and (rn = 1 or upto <= ${q.bytes}))`;
  return `copy (
    select case when fits then event_json else '${MORE}' end from (
      select seq, event_json, ${fits} as fits, lag(${fits}, 1, true) over w as prev_fits
      from (
        select seq, event_json, row_number() over w as rn, sum(octet_length(event_json)) over w as upto,
               count(*) filter (where event_json is null) over w as unkept
        from (
          select seq, event_json from breadcrumb_history where ${where.join(" and ")}
          order by seq asc nulls last limit ${q.rows + 1}
        ) candidates
        window w as (order by seq rows unbounded preceding)
      ) sized
      window w as (order by seq rows unbounded preceding)
    ) cut
    where fits or prev_fits
    order by seq
  ) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`;
}

export interface CopyStep extends Pick<EventPage, "next_after" | "has_more"> {
  /** The step's NDJSON lines, each ending in a newline. */
  lines: Buffer;
  events: number;
}

/**
 * A step's COPY output read: its lines, how many, where the next step starts and whether rows
 * follow. Undefined when the rows must be read as rows instead (a quoted value; no line although
 * rows follow, the next one having no kept text).
 */
export function readCopyStep(out: Buffer, after: number | undefined): CopyStep | undefined {
  if (out.indexOf(QUOTE) >= 0) return undefined;
  const more = out.length >= 2 && out[out.length - 1] === NL && out[out.length - 2] === MORE.charCodeAt(0) && (out.length === 2 || out[out.length - 3] === NL);
  const lines = more ? out.subarray(0, out.length - 2) : out;
  let events = 0;
  for (let i = lines.indexOf(NL); i >= 0; i = lines.indexOf(NL, i + 1)) events++;
  if (events === 0) return more ? undefined : { lines, events, next_after: after ?? null, has_more: false };
  const start = lines.lastIndexOf(NL, lines.length - 2) + 1;
  const seqEnd = lines.indexOf(0x2c, start);
  const seq = lines.subarray(start, start + HEAD.length).equals(HEAD) && seqEnd > 0 ? Number(lines.toString("latin1", start + HEAD.length, seqEnd)) : NaN;
  if (!Number.isSafeInteger(seq)) return undefined;
  return { lines, events, next_after: seq, has_more: more };
}
