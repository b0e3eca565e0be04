import { Hono } from "hono";
import { z } from "zod";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { listParked, retryParked } from "../../outbox/parked.ts";
import { ADMIN_OWNER } from "../auth.ts";
import type { AppEnv, RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { limitParam, parseBody, parseQuery } from "../params.ts";

const seqSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const listQuery = z.object({ limit: limitParam(1_000, 100), after: z.coerce.number().pipe(seqSchema.or(z.literal(0))).optional() });
const retryBody = z.union([z.strictObject({ seq: seqSchema }), z.strictObject({ all: z.literal(true) })]);

/**
 * `GET /v1/outbox/parked`, `POST /v1/outbox/retry` (admin scope, owner `default`
 * only): the relay's dead letters span every owner, so they are the operator's,
 * like the process itself. Through the API rather than DATABASE_URL so they also
 * work with embedded PGlite and the retry wakes the relay at once.
 */
export function outboxRoutes(deps: Pick<RouteDeps, "database" | "bodyLimitBytes"> & { onRetry: () => void }) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    if (c.get("principal").owner !== ADMIN_OWNER) throw new ForbiddenError('only the admin of owner "default" manages the outbox');
    await next();
  });

  app.get("/parked", async (c) => {
    const q = parseQuery(listQuery, c.req.query());
    const items = await listParked(deps.database.db, { limit: q.limit + 1, after: q.after });
    const page = items.slice(0, q.limit);
    return c.json({ items: page, next_after: items.length > q.limit ? (page.at(-1)?.seq ?? null) : null });
  });

  app.post("/retry", async (c) => {
    const body = parseBody(retryBody, await readJsonBody(c, deps.bodyLimitBytes));
    const retried = await retryParked(deps.database.db, "seq" in body ? body.seq : undefined);
    if ("seq" in body && retried.length === 0) throw new NotFoundError(`no parked outbox row with seq ${body.seq}`);
    deps.onRetry();
    return c.json({ retried });
  });
  return app;
}
