import { z } from "@hono/zod-openapi";
import type { Database } from "../../db/database.ts";
import type { Metrics } from "../../metrics.ts";
import type { NatsLink } from "../../nats/connect.ts";
import { json } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const Readiness = z.object({ status: z.enum(["ready", "not_ready"]), postgres: z.boolean(), nats: z.boolean() }).openapi("Readiness");
const retryAfter = { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const } } };

const routes = {
  healthz: apiRoute({
    method: "get",
    path: "/healthz",
    operationId: "getHealth",
    tags: ["operations"],
    summary: "The process is alive",
    scope: "public",
    responses: { 200: json(z.object({ status: z.literal("ok") }), "Alive") },
  }),
  readyz: apiRoute({
    method: "get",
    path: "/readyz",
    operationId: "getReadiness",
    tags: ["operations"],
    summary: "Postgres and NATS are reachable",
    scope: "public",
    responses: { 200: json(Readiness, "Ready"), 503: { ...json(Readiness, "Not ready"), headers: retryAfter } },
  }),
  metrics: apiRoute({
    method: "get",
    path: "/metrics",
    operationId: "getMetrics",
    tags: ["operations"],
    summary: "Prometheus metrics",
    scope: "public",
    responses: { 200: { description: "Prometheus text format 0.0.4", content: { "text/plain": { schema: z.string() } } } },
  }),
  openapi: apiRoute({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tags: ["operations"],
    summary: "This document (OpenAPI 3.1); the reference page is /docs",
    scope: "public",
    responses: { 200: json(z.record(z.string(), z.unknown()), "The OpenAPI document") },
  }),
} as const;

export function healthRoutes(deps: {
  database: Database;
  nats?: NatsLink;
  metrics: Metrics;
  backlog?: () => Promise<number>;
  parked?: () => Promise<number>;
  /** The OpenAPI document, built from every route once they are all defined. */
  document: () => object;
}) {
  const app = newRouter();

  defineRoute(app, routes.healthz, (c) => c.json({ status: "ok" as const }));

  defineRoute(app, routes.readyz, async (c) => {
    const postgres = await deps.database
      .ping()
      .then(() => true)
      .catch(() => false);
    const nats = deps.nats ? deps.nats.connected() : false;
    const body = { status: postgres && nats ? "ready" : "not_ready", postgres, nats };
    if (!(postgres && nats)) c.header("Retry-After", "1");
    return c.json(body, postgres && nats ? 200 : 503);
  });

  defineRoute(app, routes.metrics, async (c) => {
    const outboxBacklog = deps.backlog ? await deps.backlog().catch(() => undefined) : undefined;
    const outboxParked = deps.parked ? await deps.parked().catch(() => undefined) : undefined;
    c.header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    return c.body(await deps.metrics.render({ outboxBacklog, outboxParked }));
  });

  defineRoute(app, routes.openapi, (c) => c.json(deps.document()));

  return app;
}
