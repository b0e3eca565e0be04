import type { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { CrumbsError, EVENTS_NDJSON } from "@crumbs/schemas";
import { closingLine, EventSteps, type EventStepsQuery } from "../store/event-lines.ts";
import type { Database } from "../db/database.ts";
import type { OwnerReadGate } from "../limits/owner-read-gate.ts";
import { errorBody } from "./errors.ts";

/** Whether the request asks for the streamed answer (an Accept naming NDJSON). */
export const wantsNdjson = (accept: string | undefined) => accept !== undefined && accept.toLowerCase().includes(EVENTS_NDJSON);

export interface NdjsonDeps {
  database: Database;
  ownerReads: OwnerReadGate;
  pageMaxBytes: number;
  /** Logs a failure after the answer started (its status is already sent). */
  reportError: (msg: string, err: unknown) => void;
}

const HEADERS = { "Content-Type": EVENTS_NDJSON, "Cache-Control": "private, no-cache", Vary: "Accept" };

/** Until the socket took what was written ('drain'): true, or false when the client went away first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (!res.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/**
 * `/v1/events` as NDJSON, written as Postgres produces the steps (store/event-lines.ts): each line
 * an event's kept JSON text, the last one `{"next_after","has_more"}`; a failure once the answer
 * started is a last line `{"error","message"}` instead, so a client that did not read a closing
 * line knows the answer is cut short. The read holds the owner's share (one page's budget, what
 * the three steps it holds at most) until the last line is written or the client goes away.
 *
 * Written on the Node response itself, not through a web ReadableStream: a step's chunks (a row
 * each, as Postgres sent them) go out as one HTTP chunk, corked, without being joined into one
 * Buffer first. The next step is asked for only when the socket took this one ('drain'), so a slow
 * client holds one step in the API, not the answer; a client that goes away ('close') stops the
 * steps, which releases the share and asks Postgres for nothing more.
 *
 * The first step is read before the answer starts, so a request that fails at once (a selector over
 * the work budget, Postgres down) still gets its error status.
 */
export async function ndjsonEvents(deps: NdjsonDeps, owner: string, q: EventStepsQuery, res: ServerResponse | undefined): Promise<Response> {
  // app.request() in-process has no Node response to write on.
  if (!res) throw new Error("the streamed answer is written on @hono/node-server's response");
  const release = await deps.ownerReads.acquire(owner, deps.pageMaxBytes);
  let steps: EventSteps;
  let lines: Buffer[] | undefined;
  try {
    steps = new EventSteps(deps.database, owner, q);
    lines = await steps.next();
  } catch (err) {
    release();
    throw err;
  }
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    steps.stop();
    release();
  };
  res.once("close", finish);
  res.writeHead(200, HEADERS);
  void (async () => {
    try {
      for (; lines !== undefined; lines = await steps.next()) {
        // A step of a selector's scan can be empty yet not the last: read on, write nothing.
        if (lines.length === 0) continue;
        // Corked, the response sends the step as one HTTP chunk; it uncorks its socket before it
        // writes that chunk's parts, so the socket is corked around it too: one writev, not a
        // write a row, and the socket's 'drain' (the response's) comes when it took the step.
        res.socket?.cork();
        res.cork();
        for (const chunk of lines) res.write(chunk);
        res.uncork();
        res.socket?.uncork();
        if (!(await drained(res))) return;
      }
      if (steps.end) res.write(closingLine(steps.end));
    } catch (err) {
      const known = err instanceof CrumbsError;
      if (!known) deps.reportError("streamed /v1/events failed", err);
      const line = known ? errorBody(err.code, err.message, err.details) : errorBody("internal", "internal error");
      if (!res.destroyed) res.write(`${JSON.stringify(line)}\n`);
    }
    finish();
    res.end();
  })();
  return RESPONSE_ALREADY_SENT;
}
