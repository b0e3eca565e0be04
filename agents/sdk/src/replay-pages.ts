import { ApiResponseError } from "./errors.ts";
import type { CrumbsHttp, EventsQuery } from "./http-client.ts";
import { itemSpans } from "./item-spans.ts";
import type { Selector } from "./selector.ts";
import { replayedPageSchema, type ReplayedEvent } from "./wire.ts";

export interface ReplayOptions {
  /** Start after this event seq (exclusive). */
  after?: number;
  since?: string | Date;
  until?: string | Date;
  /** Events per request; the API also ends a page at its byte bound. */
  pageSize?: number;
  /** Aborting rejects the iteration with the signal's reason. */
  signal?: AbortSignal;
}

/** The API's largest page of `/v1/events`: replays ask for it, the byte bound still applies. */
export const REPLAY_PAGE_SIZE = 1_000;

interface CursorPage {
  items: readonly { seq: number }[];
  next_after?: number | null | undefined;
  has_more?: boolean | undefined;
}

/**
 * The pages of `/v1/events` in seq order from `after` (or `since`), each next page asked for as
 * soon as the one before it is in, so the API reads it while the caller handles this one (the
 * replay publish waited a round trip and a page's read per page). Stopping the iteration aborts
 * the request in flight.
 */
export async function* pagesAfter<P extends CursorPage>(
  fetchPage: (query: EventsQuery, signal: AbortSignal) => Promise<P>,
  selector: Selector | undefined,
  opts: ReplayOptions,
): AsyncGenerator<P> {
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const ask = (after: number | undefined, since: string | Date | undefined) => {
    const p = fetchPage({ after, since, until: opts.until, selector, limit: opts.pageSize ?? REPLAY_PAGE_SIZE }, signal);
    // Awaited on the next turn; a rejection after the caller stopped has nobody to tell.
    p.catch(() => {});
    return p;
  };
  let after = opts.after;
  let pending = ask(after, after === undefined ? opts.since : undefined);
  try {
    for (;;) {
      const page = await pending;
      const next = page.next_after ?? page.items.at(-1)?.seq ?? after;
      // With a selector a page can be empty yet not the last (the API scans a bounded number of rows
      // per request), so `has_more` decides; without it, an empty page ends the replay. Either way a
      // cursor that does not move ends it: never loop forever on one page.
      const more = (page.has_more ?? page.items.length > 0) && next !== undefined && next !== null && next !== after;
      if (more) pending = ask(next, undefined);
      yield page;
      if (!more) return;
      after = next;
    }
  } finally {
    stop.abort();
  }
}

/** A page of events with each event's JSON as the API sent it. */
export interface ReplayedPage {
  items: ReplayedEvent[];
  /** `json[i]` is the UTF-8 JSON of `items[i]`. */
  json: Uint8Array[];
  next_after?: number | null | undefined;
  has_more?: boolean | undefined;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * One page for a replay publish: parsed once, the fields a publish uses checked, and each event's
 * bytes cut from the answer (item-spans.ts) rather than serialised again.
 */
export async function readReplayedPage(http: CrumbsHttp, query: EventsQuery, signal: AbortSignal): Promise<ReplayedPage> {
  const bytes = await http.eventsBytes(query, { signal });
  let body: unknown;
  try {
    body = JSON.parse(decoder.decode(bytes));
  } catch {
    throw new ApiResponseError("invalid_response", "GET /v1/events: the API answered something that is not JSON", 200);
  }
  const parsed = replayedPageSchema.safeParse(body);
  if (!parsed.success) throw new ApiResponseError("invalid_response", `GET /v1/events: unexpected response: ${parsed.error.message}`, 200);
  const spans = itemSpans(bytes);
  const json =
    spans && spans.length === parsed.data.items.length
      ? spans.map(([a, b]) => bytes.subarray(a, b))
      : parsed.data.items.map((e) => encoder.encode(JSON.stringify(e)));
  return { ...parsed.data, json };
}
