import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { listEvents, RowPacer } from "../../store/index.ts";
import type { AppEnv, RouteDeps } from "../context.ts";
import { limitParam, parseQuery, selectorParam } from "../params.ts";
import { InvalidRequestError } from "../../errors.ts";
import { streamEvents } from "../sse.ts";
import { bearerToken, hashToken } from "../auth.ts";

const seqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const timeParam = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

const eventsQuery = z.object({
  after: seqParam.optional(),
  since: timeParam.optional(),
  until: timeParam.optional(),
  selector: z.string().max(16_384).optional(),
  limit: limitParam(1_000, 100),
});
const streamQuery = z.object({ after: seqParam.optional(), selector: z.string().max(16_384).optional() });

export function eventRoutes(deps: RouteDeps) {
  const app = new Hono<AppEnv>();

  app.get("/", async (c) => {
    const { owner } = c.get("principal");
    const q = parseQuery(eventsQuery, c.req.query());
    return c.json(
      await listEvents(deps.database.db, owner, {
        after: q.after,
        since: q.since,
        until: q.until,
        selector: selectorParam(q.selector),
        limit: q.limit,
        pacer: new RowPacer(),
      }),
    );
  });

  app.get("/stream", async (c) => {
    const { owner } = c.get("principal");
    const q = parseQuery(streamQuery, c.req.query());
    const selector = selectorParam(q.selector);
    // A reconnecting EventSource sends Last-Event-ID; it wins over the `after` still in its URL.
    const lastEventId = c.req.header("last-event-id");
    let after = q.after;
    if (lastEventId !== undefined && lastEventId !== "") {
      const parsed = seqParam.safeParse(lastEventId);
      if (!parsed.success) throw new InvalidRequestError("Last-Event-ID must be a seq");
      after = parsed.data;
    }
    // Last, after every check that can refuse the request: the slot is released when the stream ends.
    const release = deps.streamSlots.acquire(hashToken(bearerToken(c.req.header("authorization")) ?? ""));
    return streamSSE(c, (stream) =>
      streamEvents(stream, {
        database: deps.database,
        notifier: deps.notifier,
        owner,
        selector,
        after,
        pingMs: deps.ssePingMs,
      }).finally(release),
    );
  });

  return app;
}
