import type { Executor } from "../db/database.ts";
import { listEvents, type EventJson, type EventPage, type EventQuery } from "./events.ts";
import { RowPacer } from "./work.ts";

/**
 * Page reads one streamed answer makes at most, each bounded like a page (rows, scan, bytes): a
 * hundred pages' worth of events per request, so a replay of 100,000 is one request, not a
 * hundred (each a round trip and a first step before its first byte).
 */
export const STREAM_STEPS = 100;

/** Rows one step reads: the largest page of `/v1/events`. */
const STEP_ROWS = 1_000;

const NL = Buffer.from("\n");

/** A step's events as NDJSON lines: each event's kept text, as Postgres sent it, and a newline. */
export function eventLines(items: readonly EventJson[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of items) parts.push(e.bytes, NL);
  return Buffer.concat(parts);
}

/** The closing line of a streamed answer: where to continue, as a page says it. */
export const closingLine = (end: Pick<EventPage, "next_after" | "has_more">) =>
  Buffer.from(`{"next_after":${end.next_after},"has_more":${end.has_more}}\n`);

export interface EventStepsQuery extends Omit<EventQuery, "pacer" | "maxBytes"> {
  /** CRUMBS_PAGE_MAX_BYTES: a step holds at most half of it, so two steps in memory hold a page's worth. */
  pageMaxBytes: number;
}

/**
 * An owner's events for a streamed answer: up to `limit` events (at most EVENTS_STREAM_MAX_EVENTS) in at most STREAM_STEPS page reads
 * (listEvents, so each is bounded in rows, rows scanned and bytes like a page, and each has its
 * own work budget as an SSE page does), with the next read sent to Postgres as soon as the one
 * before it is in, while the caller writes that one. A page request ran Postgres, the API and the
 * client one after another (results 36: 140-256 ms to a page's first byte at load 12-22); here
 * Postgres reads a step while the socket and the client take the one before.
 *
 * The caller pulls steps one at a time (`next`), so it holds at most the step being written and
 * the one being read: half a page each. `stop` ends it early (the client went away): the read in
 * flight finishes on its own and nothing more is asked of Postgres.
 */
export class EventSteps {
  private pending: Promise<EventPage> | undefined;
  private left: number;
  private steps = 0;
  private stopped = false;
  /** Set once the last step is handed out: what the closing line says. */
  end: Pick<EventPage, "next_after" | "has_more"> | undefined;

  constructor(
    private readonly db: Executor,
    private readonly owner: string,
    private readonly q: EventStepsQuery,
  ) {
    this.left = q.limit;
    this.pending = this.read(q.after, q.since);
  }

  /** The next step's events; undefined once the answer is complete (`end` is set) or stopped. */
  async next(): Promise<EventJson[] | undefined> {
    if (!this.pending || this.stopped) return undefined;
    const page = await this.pending;
    this.pending = undefined;
    this.steps++;
    this.left -= page.items.length;
    const cursor = page.next_after;
    const more = page.has_more && this.left > 0 && this.steps < STREAM_STEPS && cursor !== null && cursor !== this.lastAfter;
    if (more && !this.stopped) this.pending = this.read(cursor, undefined);
    else this.end = { next_after: page.next_after, has_more: page.has_more };
    return page.items;
  }

  stop(): void {
    this.stopped = true;
    this.pending = undefined;
  }

  private lastAfter: number | undefined;

  private read(after: number | undefined, since: Date | undefined): Promise<EventPage> {
    this.lastAfter = after;
    const p = listEvents(this.db, this.owner, {
      after,
      since: after === undefined ? since : undefined,
      until: this.q.until,
      selector: this.q.selector,
      limit: Math.min(STEP_ROWS, this.left),
      pacer: new RowPacer(),
      maxBytes: Math.max(1, Math.floor(this.q.pageMaxBytes / 2)),
    });
    // Awaited by the next `next`; a failure after the client left has nobody to tell.
    p.catch(() => {});
    return p;
  }
}
