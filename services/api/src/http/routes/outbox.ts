import { z } from "@hono/zod-openapi";
import { outboxRetryBodySchema, outboxRetryResultSchema, parkedOutboxPageSchema, parkedOutboxRowSchema } from "@crumbs/schemas";
import { ForbiddenError, NotFoundError } from "../../errors.ts";
import { listParked, retryParked } from "../../outbox/parked.ts";
import { ADMIN_OWNER } from "../auth.ts";
import type { Context } from "hono";
import type { AppEnv, RouteDeps } from "../context.ts";
import { readJsonBody } from "../json-body.ts";
import { limitParam, parseBody } from "../params.ts";
import { errors, json, jsonBody, named } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const listQuery = z.object({
  limit: limitParam(1_000, 100),
  after: z.coerce
    .number()
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .optional()
    .openapi({ type: "integer", description: "next_after of the previous page" }),
});
// The page's rows under their component name (the contract's page, its items named).
const ParkedRow = named(parkedOutboxRowSchema, "ParkedOutboxRow");
const ParkedPage = parkedOutboxPageSchema.extend({ items: z.array(ParkedRow) });

const routes = {
  parked: apiRoute({
    method: "get",
    path: "/parked",
    operationId: "listParkedOutbox",
    tags: ["outbox"],
    summary: "Events the relay parked because they can never be published",
    description: 'Admin of owner "default" only: the relay\'s dead letters span every owner.',
    scope: "admin",
    request: { query: listQuery },
    responses: {
      200: json(ParkedPage, "A page of parked rows"),
      ...errors(400),
    },
  }),
  retry: apiRoute({
    method: "post",
    path: "/retry",
    operationId: "retryParkedOutbox",
    tags: ["outbox"],
    summary: "Move a parked row (and its owner's rows held behind it), or all, back to the outbox",
    scope: "admin",
    request: { body: jsonBody("OutboxRetry", outboxRetryBodySchema, "`{seq}` for one row, `{all: true}` for every one") },
    responses: { 200: json(outboxRetryResultSchema, "The seqs moved back"), ...errors(400, 404, 413) },
  }),
} as const;

/**
 * `GET /v1/outbox/parked`, `POST /v1/outbox/retry` (admin scope, owner `default`
 * only): the relay's dead letters span every owner, so they are the operator's,
 * like the process itself. Through the API rather than DATABASE_URL so they also
 * work with embedded PGlite and the retry wakes the relay at once.
 */
export function outboxRoutes(deps: Pick<RouteDeps, "database" | "bodyLimitBytes"> & { onRetry: () => void }) {
  const app = newRouter();
  // After the admin scope check: a token without admin hears which scope it lacks.
  const rootOnly = (c: Context<AppEnv>) => {
    if (c.get("principal").owner !== ADMIN_OWNER) throw new ForbiddenError('only the admin of owner "default" manages the outbox');
  };

  defineRoute(app, routes.parked, async (c, { query: q }) => {
    rootOnly(c);
    const items = await listParked(deps.database.db, { limit: q.limit + 1, after: q.after });
    const page = items.slice(0, q.limit);
    return c.json({ items: page, next_after: items.length > q.limit ? (page.at(-1)?.seq ?? null) : null });
  });

  defineRoute(app, routes.retry, async (c) => {
    rootOnly(c);
    const body = parseBody(outboxRetryBodySchema, await readJsonBody(c, deps.bodyLimitBytes));
    const retried = await retryParked(deps.database.db, "seq" in body ? body.seq : undefined);
    if ("seq" in body && retried.length === 0) throw new NotFoundError(`no parked outbox row with seq ${body.seq}`);
    deps.onRetry();
    return c.json({ retried });
  });
  return app;
}
