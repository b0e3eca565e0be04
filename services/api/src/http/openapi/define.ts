import type { Context, MiddlewareHandler } from "hono";
import { OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import { parseQuery } from "../params.ts";
import { requireScope, type Scope } from "../auth-scopes.ts";
import type { AppEnv } from "../context.ts";
import { AUTH_ERRORS, errors, RATE_LIMIT_HEADERS } from "./components.ts";

/**
 * A route of the API: its OpenAPI operation (createRoute's config) and the scope it needs.
 * `public` routes take no token.
 */
export type ApiRoute = RouteConfig & { scope: Scope | "public" };

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;
export type RouteInput<R extends ApiRoute> = {
  query: Out<NonNullable<R["request"]>["query"]>;
  params: Out<NonNullable<R["request"]>["params"]>;
};

/** An operation's definition, with its scope kept as a literal type. */
export const apiRoute = <S extends Scope | "public", R extends RouteConfig>(route: R & { scope: S }): R & { scope: S } => route;

export const newRouter = () => new OpenAPIHono<AppEnv>();

/**
 * Registers the operation in the document and the handler in Hono, with the scope check and the
 * query parameters parsed by the operation's own zod schema (400 invalid_request naming the
 * parameter). Request bodies are documented by reference and read by the handler itself
 * (readJsonBody: size, depth and the contract's error codes), not by a generic JSON validator.
 */
export function defineRoute<R extends ApiRoute>(
  app: OpenAPIHono<AppEnv>,
  route: R,
  handler: (c: Context<AppEnv>, input: RouteInput<R>) => Response | Promise<Response>,
): void {
  const { scope, ...config } = route;
  const guarded = scope !== "public";
  app.openAPIRegistry.registerPath({
    ...config,
    security: guarded ? [{ bearer: [scope] }] : [],
    responses: guarded ? withRateLimitHeaders({ ...errors(...AUTH_ERRORS), ...config.responses }) : config.responses,
  });
  const query = config.request?.query;
  const params = config.request?.params;
  const arrays = query ? arrayKeys(query) : new Set<string>();
  const chain: MiddlewareHandler<AppEnv>[] = guarded ? [requireScope(scope)] : [];
  app.on(config.method.toUpperCase(), [config.path.replaceAll(/\{(\w+)\}/g, ":$1")], ...chain, (c) =>
    handler(c, {
      query: query ? parseQuery(query, queryObject(c, arrays)) : undefined,
      // Path parameters are documented strings (z.string()); each handler checks its id itself, so an
      // id that is not a uuid is a 404 like any unknown one. No zod pass on every PATCH for that.
      params: params ? c.req.param() : undefined,
    } as RouteInput<R>),
  );
}

/** The query string as one value per key, and every value for the keys whose schema is an array. */
function queryObject(c: Context, arrays: Set<string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = arrays.has(k) ? v : (v[0] ?? "");
  return out;
}

function arrayKeys(schema: z.ZodType): Set<string> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const keys = new Set<string>();
  for (const [k, field] of Object.entries(shape)) {
    let def = (field as unknown as { _zod: { def: { type: string; innerType?: unknown } } })._zod.def;
    while ((def.type === "optional" || def.type === "default") && def.innerType) {
      def = (def.innerType as { _zod: { def: typeof def } })._zod.def;
    }
    if (def.type === "array") keys.add(k);
  }
  return keys;
}

/** Every answer of a token route carries RateLimit-* (when the API limits that token). */
function withRateLimitHeaders(responses: RouteConfig["responses"]): RouteConfig["responses"] {
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => [
      status,
      "$ref" in r ? r : { ...r, headers: { ...RATE_LIMIT_HEADERS, ...(r.headers as object | undefined) } },
    ]),
  );
}
