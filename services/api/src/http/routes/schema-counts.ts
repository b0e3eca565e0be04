import { schemaCountsSchema } from "@crumbs/schemas";
import { countBySchema } from "../../store/index.ts";
import type { RouteDeps } from "../context.ts";
import { errors, json } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const route = apiRoute({
  method: "get",
  path: "/schemas",
  operationId: "countBreadcrumbsBySchema",
  tags: ["breadcrumbs"],
  summary: "How many live breadcrumbs the owner has per schema",
  scope: "read",
  responses: {
    200: json(schemaCountsSchema, "One row per schema name"),
    ...errors(503),
  },
});

/**
 * `GET /v1/stats/schemas`: how many live (not expired) breadcrumbs the owner has per schema,
 * for the dashboard's filter list. Counts kept with the writes (store/schema-counts.ts), read scope.
 */
export function schemaCountRoutes(deps: Pick<RouteDeps, "database">) {
  const app = newRouter();
  defineRoute(app, route, async (c) => {
    const { owner } = c.get("principal");
    return c.json({ items: await countBySchema(deps.database.db, owner) });
  });
  return app;
}
