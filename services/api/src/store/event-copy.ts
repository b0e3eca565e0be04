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
  /** The step's NDJSON lines, each ending in a newline, in the chunks Postgres sent them in. */
  lines: Buffer[];
  events: number;
}

/** The byte `back` bytes before the end of `chunks` (1 is the last), or -1 before their start. */
function byteFromEnd(chunks: readonly Buffer[], back: number): number {
  for (let c = chunks.length - 1; c >= 0; c--) {
    if (back <= chunks[c]!.length) return chunks[c]![chunks[c]!.length - back]!;
    back -= chunks[c]!.length;
  }
  return -1;
}

/** `chunks` without their last `drop` bytes: the chunks before, the last one kept cut (no bytes copied). */
function dropEnd(chunks: readonly Buffer[], drop: number): Buffer[] {
  const out = chunks.slice();
  while (drop > 0 && out.length > 0) {
    const last = out.pop()!;
    if (last.length > drop) out.push(last.subarray(0, last.length - drop));
    drop -= Math.min(drop, last.length);
  }
  return out;
}

/**
 * The last line of `chunks` (which end in a newline), without its newline, as one Buffer: a cut of
 * its chunk when it lies in one (Postgres sends a row a message, so it does), else its pieces joined.
 */
function lastLine(chunks: readonly Buffer[]): Buffer {
  const pieces: Buffer[] = [];
  let skip = 1;
  for (let c = chunks.length - 1; c >= 0; c--) {
    const chunk = chunks[c]!;
    const end = Math.max(0, chunk.length - skip);
    skip = 0;
    const at = end > 0 ? chunk.lastIndexOf(NL, end - 1) : -1;
    pieces.unshift(chunk.subarray(at + 1, end));
    if (at >= 0) break;
  }
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

/**
 * A step's COPY output read, as the chunks it came in (never joined: 130 MB of copies per 100,000
 * events of 1.3 KB): its lines, how many, where the next step starts and whether rows follow.
 * Undefined when the rows must be read as rows instead (a quoted value; no line although rows
 * follow, the next one having no kept text).
 */
export function readCopyStep(out: readonly Buffer[], after: number | undefined): CopyStep | undefined {
  let size = 0;
  for (const chunk of out) {
    if (chunk.indexOf(QUOTE) >= 0) return undefined;
    size += chunk.length;
  }
  const more = size >= 2 && byteFromEnd(out, 1) === NL && byteFromEnd(out, 2) === MORE.charCodeAt(0) && (size === 2 || byteFromEnd(out, 3) === NL);
  const lines = more ? dropEnd(out, 2) : out.filter((chunk) => chunk.length > 0);
  let events = 0;
  for (const chunk of lines) for (let i = chunk.indexOf(NL); i >= 0; i = chunk.indexOf(NL, i + 1)) events++;
  if (events === 0) return more ? undefined : { lines: [], events, next_after: after ?? null, has_more: false };
  const line = lastLine(lines);
  const seqEnd = line.indexOf(0x2c);
  const seq = line.subarray(0, HEAD.length).equals(HEAD) && seqEnd > 0 ? Number(line.toString("latin1", HEAD.length, seqEnd)) : NaN;
  if (!Number.isSafeInteger(seq)) return undefined;
  return { lines, events, next_after: seq, has_more: more };
}
