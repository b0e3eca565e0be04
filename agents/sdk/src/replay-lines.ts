import { ApiResponseError, EVENT_TYPES, EVENTS_STREAM_MAX_EVENTS } from "@crumbs/schemas";
import type { CrumbsHttp } from "./http-client.ts";
import { eventHead, replayedHead, type ReplayedHead } from "./ndjson-lines.ts";
import type { Selector } from "./selector.ts";
import type { ReplayedEvent } from "./wire.ts";

export interface ReplayOptions {
  /** Start after this event seq (exclusive). */
  after?: number;
  since?: string | Date;
  until?: string | Date;
  /** Events per request (at most EVENTS_STREAM_MAX_EVENTS, the default); the API also ends an answer at its byte bound. */
  pageSize?: number;
  /** Aborting rejects the iteration with the signal's reason. */
  signal?: AbortSignal;
}

/** An event of a streamed replay: its head fields, checked, and its whole JSON as the API sent it. */
export interface StreamedEvent {
  event: ReplayedEvent;
  json: Uint8Array;
}

const decoder = new TextDecoder();
const eventTypes: ReadonlySet<unknown> = new Set(EVENT_TYPES);
/** `{"seq":`: how every event line starts (the API's one builder of the event's text). */
const SEQ_KEY = new TextEncoder().encode('{"seq":');

const startsWithSeq = (line: Uint8Array) => line.length > SEQ_KEY.length && SEQ_KEY.every((b, i) => line[i] === b);

/**
 * The fields a replay uses (subject, msg id, printed line), checked by hand: a schema check per
 * event cost more than reading its head. Throws `invalid_response` for a line that is not an event.
 */
function checkedHead(head: Record<string, unknown> | ReplayedHead): ReplayedEvent {
  const { seq, type, id, owner, schema_name, title, version } = head as Record<string, unknown>;
  const ok =
    Number.isSafeInteger(seq) &&
    eventTypes.has(type) &&
    typeof id === "string" &&
    typeof owner === "string" &&
    typeof schema_name === "string" &&
    typeof title === "string" &&
    Number.isSafeInteger(version);
  if (!ok) throw new ApiResponseError("invalid_response", "GET /v1/events: a streamed line is not an event", 200);
  return head as ReplayedEvent;
}

function parsedLine(line: Uint8Array): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(decoder.decode(line));
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // Said below, as for any line that is not an object.
  }
  throw new ApiResponseError("invalid_response", "GET /v1/events: a streamed line is not a JSON object", 200);
}

/**
 * History from `/v1/events` streamed as NDJSON (the API writes each event as Postgres reads it),
 * in seq order, in the batches the body arrived in: each event's head checked and its bytes kept
 * unparsed, so a publisher forwards them as they came. One answer holds up to
 * EVENTS_STREAM_MAX_EVENTS; its closing line says where the next starts. An answer cut short (no
 * closing line) is resumed after its last event; an error line rejects with that error.
 */
export async function* streamedReplay(http: CrumbsHttp, selector: Selector | undefined, opts: ReplayOptions = {}): AsyncGenerator<StreamedEvent[]> {
  let after = opts.after;
  let since = after === undefined ? opts.since : undefined;
  for (;;) {
    let closing: { next_after: number | null; has_more: boolean } | undefined;
    let last: number | undefined;
    const query = { after, since, until: opts.until, selector, limit: opts.pageSize ?? EVENTS_STREAM_MAX_EVENTS };
    for await (const lines of http.eventLines(query, { signal: opts.signal })) {
      const batch: StreamedEvent[] = [];
      for (const line of lines) {
        if (line.length === 0) continue;
        // The event's head read from its bytes as the API lays it out, else parsed.
        const head: ReplayedHead | Record<string, unknown> = replayedHead(line) ?? ((startsWithSeq(line) && eventHead(line)) || parsedLine(line));
        if ("seq" in head) {
          const event = checkedHead(head);
          batch.push({ event, json: line });
          last = event.seq;
        } else if (typeof head.error === "string") {
          throw ApiResponseError.fromBody(200, decoder.decode(line));
        } else if (typeof head.has_more === "boolean" && (typeof head.next_after === "number" || head.next_after === null)) {
          closing = { next_after: head.next_after, has_more: head.has_more };
        } else {
          throw new ApiResponseError("invalid_response", "GET /v1/events: a streamed line is neither an event nor the closing line", 200);
        }
      }
      if (batch.length > 0) yield batch;
    }
    const next = closing ? closing.next_after : last;
    if (next === undefined || (closing && !closing.has_more)) {
      if (!closing) throw new ApiResponseError("invalid_response", "GET /v1/events: the streamed answer ended before its closing line", 200);
      return;
    }
    // A cursor that does not move ends the replay: never ask for the same answer forever.
    if (next === null || next === after) return;
    after = next;
    since = undefined;
  }
}
