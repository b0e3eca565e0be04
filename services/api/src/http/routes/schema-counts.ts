import { schemaCountsSchema } from "@crumbs/schemas";
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/database.ts";
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
 * for the dashboard's filter list. One grouped count on the owner's rows, read scope.
 */
export function schemaCountRoutes(deps: Pick<RouteDeps, "database">) {
  const app = newRouter();
  defineRoute(app, route, async (c) => {
    const { owner } = c.get("principal");
    const rows = rowsOf<{ schema_name: string; count: string }>(
      await deps.database.db.execute(sql`
        select schema_name, count(*)::text as count from breadcrumbs
        where owner = ${owner} and (expires_at is null or expires_at > now())
        group by schema_name order by schema_name`),
    );
    return c.json({ items: rows.map((r) => ({ schema_name: r.schema_name, count: Number(r.count) })) });
  });
  return app;
}
