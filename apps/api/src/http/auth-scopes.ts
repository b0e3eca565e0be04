import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { ForbiddenError } from "../errors.ts";
import type { Principal } from "./auth.ts";
import type { AppEnv } from "./context.ts";

export const SCOPES = ["read", "write", "subscribe", "admin"] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

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
