import { Hono } from "hono";
import type { Database } from "../../db/database.ts";
import type { Metrics } from "../../metrics.ts";
import type { NatsLink } from "../../nats/connect.ts";
import { buildOpenApi } from "../../openapi.ts";

export function healthRoutes(deps: {
  database: Database;
  nats?: NatsLink;
  metrics: Metrics;
  backlog?: () => Promise<number>;
  parked?: () => Promise<number>;
}) {
  const app = new Hono();
  let openapi: unknown;

  app.get("/healthz", (c) => c.json({ status: "ok" }));

  app.get("/readyz", async (c) => {
    const postgres = await deps.database
      .ping()
      .then(() => true)
      .catch(() => false);
    const nats = deps.nats ? deps.nats.connected() : false;
    const body = { status: postgres && nats ? "ready" : "not_ready", postgres, nats };
    if (!(postgres && nats)) c.header("Retry-After", "1");
    return c.json(body, postgres && nats ? 200 : 503);
  });

  app.get("/metrics", async (c) => {
    const outboxBacklog = deps.backlog ? await deps.backlog().catch(() => undefined) : undefined;
    const outboxParked = deps.parked ? await deps.parked().catch(() => undefined) : undefined;
    c.header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    return c.body(await deps.metrics.render({ outboxBacklog, outboxParked }));
  });

  app.get("/v1/openapi.json", (c) => c.json((openapi ??= buildOpenApi()) as object));

  return app;
}
