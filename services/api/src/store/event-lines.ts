import { EVENTS_PAGE_MAX_EVENTS } from "@crumbs/schemas";
import type { Database } from "../db/database.ts";
import { listEvents, type EventJson, type EventPage, type EventQuery } from "./events.ts";
import { copyStepStatement, readCopyStep } from "./event-copy.ts";
import { RowPacer } from "./work.ts";
import { stepBoundary } from "./paging/step-boundary.ts";

/**
 * Page reads one streamed answer makes at most, each bounded like a page (rows, scan, bytes): a
 * hundred pages' worth of events per request, so a replay of 100,000 is one request, not a
 * hundred (each a round trip and a first step before its first byte).
 */
export const STREAM_STEPS = 100;


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
  /** CRUMBS_PAGE_MAX_BYTES: a step holds at most a third of it, so the three steps in memory hold a page's worth. */
  pageMaxBytes: number;
}

/** A step's answer: its NDJSON lines, how many events they are, and where the next step starts. */
interface StepLines extends Pick<EventPage, "next_after" | "has_more"> {
  lines: Buffer;
  events: number;
}

/** A step asked of Postgres: from where, for how many rows, and its lines when they are in. */
interface Step {
  after: number | undefined;
  limit: number;
  page: Promise<StepLines>;
}

/**
 * An owner's events for a streamed answer: up to `limit` events (at most EVENTS_STREAM_MAX_EVENTS)
 * in at most STREAM_STEPS page reads, each bounded in rows and bytes like a page (and, read as
 * rows through listEvents, in rows scanned, with its own work budget as an SSE page has). A page
 * request ran Postgres, the API and the client one after another (results 36: 140-256 ms to a
 * page's first byte at load 12-22); here Postgres reads the next steps while the socket and the
 * client take this one.
 *
 * Without a selector, on Postgres, a step is one COPY whose output is the step's lines
 * (event-copy.ts: 0.65x the CPU of the row read); a step the COPY cannot serve (rows without
 * kept text) is read as rows. A selector's steps are row reads: its SQL part would have to be
 * rendered as literals, and a selector that filters in JS needs each row parsed.
 *
 * Two steps are in Postgres at once. A COPY step says where it ends when it is in, and the step
 * after it starts there at once. A row read has no such answer in time: when the answer has no
 * selector and no `until`, the step after next starts where stepBoundary says the next one ends,
 * and is used only if the next one does end there (otherwise it is dropped and read again from
 * where it did end). With one step ahead, a stream waited for each step's rows to cross from
 * Postgres before asking for the next.
 *
 * The caller pulls steps one at a time (`next`), so it holds at most the step being written and
 * the two being read: a third of a page each. `stop` ends it early (the client went away): reads
 * in flight finish on their own (a COPY is always read to its end) and nothing more is asked of
 * Postgres.
 */
export class EventSteps {
  private pending: Step | undefined;
  private ahead: Step | undefined;
  private left: number;
  private steps = 0;
  private stopped = false;
  private readonly stepBytes: number;
  private readonly copies: boolean;
  private readonly readsAhead: boolean;
  /** Set once the last step is handed out: what the closing line says. */
  end: Pick<EventPage, "next_after" | "has_more"> | undefined;

  constructor(
    private readonly database: Pick<Database, "db" | "copyOut">,
    private readonly owner: string,
    private readonly q: EventStepsQuery,
  ) {
    this.left = q.limit;
    this.stepBytes = Math.max(1, Math.floor(q.pageMaxBytes / 3));
    this.copies = !q.selector && database.copyOut !== undefined;
    this.readsAhead = this.copies || (!q.selector && !q.until && !(q.after === undefined && q.since));
    this.pending = this.read(q.after, q.since, Math.min(EVENTS_PAGE_MAX_EVENTS, this.left));
    this.readAhead(this.pending);
  }

  /** The next step's NDJSON lines (empty for a step a selector kept nothing of); undefined once the answer is complete (`end` is set) or stopped. */
  async next(): Promise<Buffer | undefined> {
    const current = this.pending;
    if (!current || this.stopped) return undefined;
    const page = await current.page;
    this.pending = undefined;
    this.steps++;
    this.left -= page.events;
    const cursor = page.next_after;
    const more = page.has_more && this.left > 0 && this.steps < STREAM_STEPS && cursor !== null && cursor !== current.after;
    const ahead = this.ahead;
    this.ahead = undefined;
    if (more && !this.stopped) {
      const limit = Math.min(EVENTS_PAGE_MAX_EVENTS, this.left);
      this.pending = ahead && ahead.after === cursor && ahead.limit === limit ? ahead : this.read(cursor, undefined, limit);
      this.readAhead(this.pending);
    } else {
      this.end = { next_after: page.next_after, has_more: page.has_more };
    }
    return page.lines;
  }

  stop(): void {
    this.stopped = true;
    this.pending = undefined;
    this.ahead = undefined;
  }

  /** Starts the step after `step` where it ends, while `step` is still the one awaited. */
  private readAhead(step: Step): void {
    if (!this.readsAhead || this.steps + 2 > STREAM_STEPS) return;
    const left = this.left;
    const startAt = (end: { seq: number; rows: number } | undefined) => {
      if (!end || this.stopped || this.pending !== step || left - end.rows <= 0) return;
      this.ahead = this.read(end.seq, undefined, Math.min(EVENTS_PAGE_MAX_EVENTS, left - end.rows));
    };
    // Registered before `next` awaits the step, so this runs first and `next` finds the step ahead.
    const ends = this.copies
      ? step.page.then((p) => (p.has_more && p.next_after !== null ? { seq: p.next_after, rows: p.events } : undefined))
      : stepBoundary(this.database.db, this.owner, step.after, step.limit, this.stepBytes);
    ends.then(startAt, () => {});
  }

  private read(after: number | undefined, since: Date | undefined, limit: number): Step {
    const page = this.copies ? this.copyStep(after, since, limit) : this.rowStep(after, since, limit);
    // Awaited by a later `next`, or dropped; a failure nobody awaits has nobody to tell.
    page.catch(() => {});
    return { after, limit, page };
  }

  private async copyStep(after: number | undefined, since: Date | undefined, limit: number): Promise<StepLines> {
    const statement = copyStepStatement(this.owner, { after, since, until: this.q.until, rows: limit, bytes: this.stepBytes });
    const step = statement === undefined ? undefined : readCopyStep(await this.database.copyOut!(statement), after);
    return step ?? this.rowStep(after, since, limit);
  }

  private async rowStep(after: number | undefined, since: Date | undefined, limit: number): Promise<StepLines> {
    const page = await listEvents(this.database.db, this.owner, {
      after,
      since: after === undefined ? since : undefined,
      until: this.q.until,
      selector: this.q.selector,
      limit,
      pacer: new RowPacer(),
      maxBytes: this.stepBytes,
    });
    return { lines: eventLines(page.items), events: page.items.length, next_after: page.next_after, has_more: page.has_more };
  }
}
