import type { MiddlewareHandler } from "hono";
import { SCOPES, scopeSchema, type Scope } from "@crumbs/schemas";
import { ForbiddenError } from "../errors.ts";
import type { Principal } from "./auth.ts";
import type { AppEnv } from "./context.ts";

export { SCOPES, scopeSchema, type Scope };

// Each route declares the scope it needs in its definition (openapi/define.ts), which also writes
// it into the OpenAPI document as the operation's security requirement: a route cannot be defined
// without one, and the document and the check cannot disagree.

export const hasScope = (p: Pick<Principal, "scopes">, scope: Scope) => p.scopes.includes("*") || p.scopes.includes(scope);

/** After authentication: a token without the route's scope gets 403 naming the scope. */
export function requireScope(scope: Scope): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasScope(c.get("principal"), scope)) {
      throw new ForbiddenError(`this token lacks the "${scope}" scope`, { scope });
    }
    await next();
  };
}
