import { CrumbsError, EVENTS_NDJSON } from "@crumbs/schemas";
import { closingLine, EventSteps, type EventStepsQuery } from "../store/event-lines.ts";
import type { Database } from "../db/database.ts";
import type { OwnerReadGate } from "../limits/owner-read-gate.ts";
import { errorBody } from "./errors.ts";

const EMPTY = Buffer.alloc(0);

/** Whether the request asks for the streamed answer (an Accept naming NDJSON). */
export const wantsNdjson = (accept: string | undefined) => accept !== undefined && accept.toLowerCase().includes(EVENTS_NDJSON);

export interface NdjsonDeps {
  database: Database;
  ownerReads: OwnerReadGate;
  pageMaxBytes: number;
  /** Logs a failure after the answer started (its status is already sent). */
  reportError: (msg: string, err: unknown) => void;
}

/**
 * `/v1/events` as NDJSON, written as Postgres produces the steps (store/event-lines.ts): each line
 * an event's kept JSON text, the last one `{"next_after","has_more"}`; a failure once the answer
 * started is a last line `{"error","message"}` instead, so a client that did not read a closing
 * line knows the answer is cut short. The read holds the owner's share (one page's budget, what
 * the three steps it holds at most) until the last line is written or the client goes away.
 *
 * The body is a pull stream: the server asks for the next chunk only when the socket took the one
 * before, so a slow client holds one step in the API, not the answer; a client that disconnects
 * cancels it, which releases the share and asks Postgres for nothing more.
 *
 * The first step is read before the answer starts, so a request that fails at once (a selector over
 * the work budget, Postgres down) still gets its error status.
 */
export async function ndjsonEvents(deps: NdjsonDeps, owner: string, q: EventStepsQuery): Promise<Response> {
  const release = await deps.ownerReads.acquire(owner, deps.pageMaxBytes);
  let steps: EventSteps;
  let first: Buffer;
  try {
    steps = new EventSteps(deps.database, owner, q);
    first = (await steps.next()) ?? EMPTY;
  } catch (err) {
    release();
    throw err;
  }
  let sentFirst = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!sentFirst) {
            sentFirst = true;
            if (first.length > 0) return controller.enqueue(first);
          }
          for (;;) {
            const lines = await steps.next();
            if (lines === undefined) break;
            // A step of a selector's scan can be empty yet not the last: read on, write nothing.
            if (lines.length > 0) return controller.enqueue(lines);
          }
          if (steps.end) controller.enqueue(closingLine(steps.end));
          controller.close();
          release();
        } catch (err) {
          const known = err instanceof CrumbsError;
          if (!known) deps.reportError("streamed /v1/events failed", err);
          const line = known ? errorBody(err.code, err.message, err.details) : errorBody("internal", "internal error");
          controller.enqueue(Buffer.from(`${JSON.stringify(line)}\n`));
          controller.close();
          release();
        }
      },
      cancel() {
        steps.stop();
        release();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": EVENTS_NDJSON, "Cache-Control": "private, no-cache", Vary: "Accept" },
  });
}
