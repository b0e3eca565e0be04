import { z } from "@hono/zod-openapi";
import { streamSSE } from "hono/streaming";
import { eventPageJson, eventPageTag, listEvents, RowPacer } from "../../store/index.ts";
import type { RouteDeps } from "../context.ts";
import { limitParam, selectorParam } from "../params.ts";
import { InvalidRequestError } from "../../errors.ts";
import { streamEvents } from "../sse.ts";
import { ownerRead } from "../owner-read.ts";
import { conditionalJson, contentEtag } from "../conditional.ts";
import { BreadcrumbEvent, errors, etagHeader, ifNoneMatchHeader, json, notModified, selectorQuery } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";
import { ndjsonEvents, wantsNdjson } from "../ndjson-events.ts";
import { STREAM_STEPS } from "../../store/event-lines.ts";
import { EVENTS_NDJSON, EVENTS_PAGE_MAX_EVENTS, EVENTS_STREAM_MAX_EVENTS } from "@crumbs/schemas";

const seqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const timeParam = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const after = seqParam.optional().openapi({ description: "Only events with a larger seq" });

const streamedDescription =
  `With \`Accept: ${EVENTS_NDJSON}\` the answer is streamed as Postgres reads it: one line per event (the same BreadcrumbEvent JSON ` +
  `a page's items hold, byte for byte), then a closing line \`{"next_after": <seq|null>, "has_more": <bool>}\` that says ` +
  `where to continue, as a page does. \`limit\` may then be up to ${EVENTS_STREAM_MAX_EVENTS}; the answer ends earlier after ` +
  `${STREAM_STEPS} page reads (each bounded like a page in rows scanned and in bytes, a third of CRUMBS_PAGE_MAX_BYTES). ` +
  "No ETag (If-None-Match is not checked). A failure after the answer started is a last line `{error, message}` " +
  "instead of the closing line: an answer without a closing line is incomplete, resume from the last event's seq.";

/** The page's answer documented with its streamed form beside it (no ETag there). */
function withNdjson<R extends { content: Record<string, unknown> }>(page: R): R {
  const lines = z.string().openapi({ description: "NDJSON: one BreadcrumbEvent a line, then {next_after, has_more}" });
  return { ...page, content: { ...page.content, [EVENTS_NDJSON]: { schema: lines } } };
}

const routes = {
  list: apiRoute({
    method: "get",
    path: "/",
    operationId: "listEvents",
    tags: ["events"],
    summary: "Past events in seq order (replay)",
    description: streamedDescription,
    scope: "read",
    parameters: [ifNoneMatchHeader, selectorQuery],
    request: {
      query: z.object({
        after,
        since: timeParam.optional().openapi({ type: "string", format: "date-time", description: "ISO time; ignored with after" }),
        until: timeParam.optional().openapi({ type: "string", format: "date-time", description: "ISO time, exclusive" }),
        limit: limitParam(EVENTS_STREAM_MAX_EVENTS, 100).openapi({ description: `At most ${EVENTS_PAGE_MAX_EVENTS} for a JSON page, ${EVENTS_STREAM_MAX_EVENTS} streamed` }),
      }),
    },
    responses: {
      200: withNdjson(
        json(
          z.object({
            items: z.array(BreadcrumbEvent),
            next_after: z.number().int().nullable().openapi({ description: "Pass as `after` to continue: the last seq examined" }),
            has_more: z.boolean(),
          }),
          "A page of events (or, with Accept: application/x-ndjson, the streamed lines described above)",
          etagHeader,
        ),
      ),
      304: notModified,
      ...errors(400, 422, 503),
    },
  }),
  stream: apiRoute({
    method: "get",
    path: "/stream",
    operationId: "streamEvents",
    tags: ["events"],
    summary: "Live events as server-sent events",
    description:
      "`text/event-stream`: each event is `id: <seq>`, `event: <created|updated|deleted>`, `data: <BreadcrumbEvent JSON>`; a comment line every 15 s keeps it open. " +
      "A reconnecting client's Last-Event-ID resumes after that seq, with the events written meanwhile. " +
      "When the token is revoked or expires, the stream sends `event: error` with an `unauthorized` error body and closes.",
    scope: "subscribe",
    parameters: [selectorQuery, { name: "Last-Event-ID", in: "header", required: false, description: "Resume after this seq", schema: { type: "string" } }],
    request: { query: z.object({ after }) },
    responses: {
      200: {
        description: "The stream",
        content: { "text/event-stream": { schema: z.string().openapi({ description: "Server-sent events whose data is a BreadcrumbEvent" }) } },
      },
      ...errors(400, 422),
    },
  }),
} as const;

export function eventRoutes(deps: RouteDeps) {
  const app = newRouter();

  defineRoute(app, routes.list, async (c, { query: q }) => {
    const { owner } = c.get("principal");
    const selector = selectorParam(c.req.query("selector"));
    c.header("Vary", "Accept");
    if (wantsNdjson(c.req.header("accept"))) {
      const q2 = { after: q.after, since: q.since, until: q.until, selector, limit: q.limit, pageMaxBytes: deps.pageMaxBytes };
      return ndjsonEvents(deps, owner, q2);
    }
    if (q.limit > EVENTS_PAGE_MAX_EVENTS) {
      throw new InvalidRequestError(`limit: at most ${EVENTS_PAGE_MAX_EVENTS} for a page (${EVENTS_STREAM_MAX_EVENTS} with Accept: ${EVENTS_NDJSON})`);
    }
    return ownerRead(deps, owner, async () => {
      const page = await listEvents(deps.database.db, owner, {
        after: q.after,
        since: q.since,
        until: q.until,
        selector,
        limit: q.limit,
        pacer: new RowPacer(),
        maxBytes: deps.pageMaxBytes,
      });
      return conditionalJson(c, eventPageJson(page), contentEtag(eventPageTag(page)));
    });
  });

  defineRoute(app, routes.stream, async (c, { query: q }) => {
    const { owner } = c.get("principal");
    const selector = selectorParam(c.req.query("selector"));
    // A reconnecting EventSource sends Last-Event-ID; it wins over the `after` still in its URL.
    const lastEventId = c.req.header("last-event-id");
    let after = q.after;
    if (lastEventId !== undefined && lastEventId !== "") {
      const parsed = seqParam.safeParse(lastEventId);
      if (!parsed.success) throw new InvalidRequestError("Last-Event-ID must be a seq");
      after = parsed.data;
    }
    // Last, after every check that can refuse the request: the slot is released when the stream ends.
    const release = deps.streamSlots.acquire(owner);
    return streamSSE(c, (stream) =>
      streamEvents(stream, {
        database: deps.database,
        notifier: deps.notifier,
        owner,
        selector,
        after,
        pingMs: deps.ssePingMs,
        stillAuthenticated: c.get("stillAuthenticated"),
        keyChanges: deps.keyChanges,
        pageMaxBytes: deps.pageMaxBytes,
        ownerReads: deps.ownerReads,
      }).finally(release),
    );
  });

  return app;
}
