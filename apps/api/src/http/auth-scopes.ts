import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { ForbiddenError } from "../errors.ts";
import type { Principal } from "./auth.ts";
import type { AppEnv } from "./context.ts";

export const SCOPES = ["read", "write", "subscribe", "admin"] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

/**
 * Every `/v1` route and the scope it needs. A route missing here needs
 * `admin` (fail closed); auth-scopes.test.ts walks the app's routes so a new
 * route cannot be forgotten silently.
 */
export const ROUTE_SCOPES: readonly { method: string; path: RegExp; scope: Scope }[] = [
  { method: "GET", path: /^\/v1\/events\/stream\/?$/, scope: "subscribe" },
  { method: "GET", path: /^\/v1\/events\/?$/, scope: "read" },
  { method: "GET", path: /^\/v1\/breadcrumbs(\/[^/]+(\/history)?)?\/?$/, scope: "read" },
  { method: "POST", path: /^\/v1\/breadcrumbs\/?$/, scope: "write" },
  { method: "PATCH", path: /^\/v1\/breadcrumbs\/[^/]+\/?$/, scope: "write" },
  { method: "DELETE", path: /^\/v1\/breadcrumbs\/[^/]+\/?$/, scope: "write" },
  { method: "GET", path: /^\/v1\/stats\/schemas\/?$/, scope: "read" },
  { method: "GET", path: /^\/v1\/agents\/[^/]+\/consumers\/?$/, scope: "read" },
  { method: "POST", path: /^\/v1\/nats\/credentials\/?$/, scope: "subscribe" },
  { method: "*", path: /^\/v1\/keys(\/[^/]+)?\/?$/, scope: "admin" },
  { method: "GET", path: /^\/v1\/outbox\/parked\/?$/, scope: "admin" },
  { method: "POST", path: /^\/v1\/outbox\/retry\/?$/, scope: "admin" },
];

export function scopeFor(method: string, path: string): Scope {
  // HEAD is a GET without a body: same scope.
  const m = method === "HEAD" ? "GET" : method;
  return ROUTE_SCOPES.find((r) => (r.method === "*" || r.method === m) && r.path.test(path))?.scope ?? "admin";
}

export const hasScope = (p: Pick<Principal, "scopes">, scope: Scope) => p.scopes.includes("*") || p.scopes.includes(scope);

/** After authentication: a token without the route's scope gets 403 naming the scope. */
export function requireRouteScope(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const scope = scopeFor(c.req.method, c.req.path);
    if (!hasScope(c.get("principal"), scope)) {
      throw new ForbiddenError(`this token lacks the "${scope}" scope`, { scope });
    }
    await next();
  };
}
