import type { Hono, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { MethodNotAllowedError } from "../errors.ts";

/**
 * A known path asked with a method it does not have answers 405 with `Allow` (RFC 9110, 15.5.6),
 * not 404, and before authentication: which methods a path has is in the public document anyway.
 * Free on the way of a request that has a route: the router already matched it, and only a request
 * without one looks at the route table.
 */
export function methodNotAllowed(app: Hono<never>): MiddlewareHandler {
  let table: { pattern: RegExp; method: string }[] | undefined;
  const allowed = (path: string) => {
    table ??= app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(`^${r.path.replace(/\/$/, "").replace(/\/\*$/, "/.*").replace(/:\w+/g, "[^/]+")}/?$`),
      }));
    const methods = new Set(table.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
  return async (c, next) => {
    if (matchedRoutes(c).some((r) => r.method !== "ALL")) return next();
    const allow = allowed(c.req.path);
    // A path the table knows for this very method but the router did not match is not a 405.
    if (allow.length > 0 && !allow.includes(c.req.method)) throw new MethodNotAllowedError(c.req.method, c.req.path, allow);
    return next();
  };
}
