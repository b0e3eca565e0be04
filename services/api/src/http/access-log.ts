import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { routePath } from "hono/route";
import type { Logger } from "@crumbs/telemetry";
import type { Metrics } from "../metrics.ts";
import type { AppEnv } from "./context.ts";

/**
 * X-Request-Id: the caller's when it is a plain token of at most 128 characters (a proxy's id
 * follows the request through), a new UUID otherwise; echoed on the answer and in every log line
 * of the request.
 */
export const requestIds = () => requestId({ headerName: "X-Request-Id", limitLength: 128 });

/**
 * One access-log line and one metrics observation per request, after the answer is made. The
 * path goes without its query (selectors and cursors are the user's data) and no header is
 * logged, so no token reaches a log. `route` is the pattern (`/v1/breadcrumbs/:id`), so metrics
 * get one series per route, not per id. For an SSE stream the line comes when the stream starts.
 */
export function accessLog(logger: Logger, metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const matched = routePath(c, -1);
    const route = matched === "*" ? "unmatched" : matched;
    const status = c.res.status;
    metrics.observeRequest(c.req.method, route, status, seconds);
    const line = {
      req_id: c.get("requestId"),
      method: c.req.method,
      path: c.req.path,
      route,
      status,
      ms: Math.round(seconds * 10_000) / 10,
      owner: c.get("principal")?.owner,
    };
    if (status >= 500) logger.warn(line, "request");
    else logger.info(line, "request");
  };
}
