import { z, type RouteConfig } from "@hono/zod-openapi";
import {
  breadcrumbEventSchema,
  breadcrumbSchema,
  ERROR_CODES,
  errorBodySchema,
  llmHintsSchema,
  selectorSchema,
} from "@crumbs/schemas";

// The named schemas of the OpenAPI document. Each is the zod schema the API validates or answers
// with, given a component name (`.openapi(name)` makes a copy that the generator writes once under
// components and references everywhere else).

type OpenApiMeta = Parameters<z.ZodType["openapi"]>[1];
const openapiMethod = z.ZodType.prototype.openapi;
/**
 * `schema.openapi(name, meta)` for any schema. @hono/zod-openapi adds `.openapi` to zod when it is
 * first imported, and zod 4 schemas made before that (e.g. by @crumbs/schemas, which knows nothing
 * of OpenAPI) do not have it; the method itself works on any of them.
 */
export const named = <T extends z.ZodType>(schema: T, name: string, meta?: OpenApiMeta): T => openapiMethod.call(schema, name, meta) as T;

export const LlmHints = named(llmHintsSchema, "LlmHints");
export const Breadcrumb = breadcrumbSchema.extend({ llm_hints: LlmHints.optional() }).openapi("Breadcrumb");
export const BreadcrumbEvent = breadcrumbEventSchema.extend({ breadcrumb: Breadcrumb }).openapi("BreadcrumbEvent");
export const HistoryItem = Breadcrumb.extend({
  seq: z.number().int().min(1).openapi({ description: "The event's seq" }),
  event: z.enum(["created", "updated", "deleted"]),
}).openapi("HistoryItem", { description: "One version of a breadcrumb as it was written" });
export const LlmView = z
  .record(z.string(), z.unknown())
  .openapi("LlmView", { description: "A breadcrumb as a model sees it: whatever its llm_hints produce (schemas/README.md, llm_hints)" });
export const Selector = named(selectorSchema, "Selector");
export const ErrorBody = named(errorBodySchema, "Error");

/** GET /v1/breadcrumbs/{id} answers the breadcrumb, or with `view=llm` its llm view. */
export const BreadcrumbOrView = z.union([Breadcrumb, LlmView]);

/** Which codes each status carries, from ERROR_CODES (the one list). */
function codesFor(status: number): string[] {
  const codes = Object.entries(ERROR_CODES)
    .filter(([, s]) => s === status)
    .map(([code]) => code);
  // budget_exceeded is 422 for work too large and 503 past a deadline.
  return status === 503 ? [...codes, "budget_exceeded"] : codes;
}

const WHY: Record<number, string> = {
  400: "the request is malformed: not JSON, a field or parameter out of range",
  401: "no bearer token, or one the API does not know",
  403: "the token lacks the scope this operation needs (details.scope)",
  404: "no such resource for this token's owner",
  409: "a breadcrumb with this key exists (details.id, details.version)",
  412: "If-Match names an older version (details.current_version)",
  413: "the body is larger than the limit (details.limit)",
  422: "the content is refused: a known schema, llm_hints, a selector, or more work than a request may do",
  428: 'If-Match: "<version>" is required',
  429: "too many requests for this token (Retry-After, RateLimit-* headers)",
  503: "a backing service is unavailable or the request ran past its deadline (Retry-After)",
};

const rateHeaders = {
  "RateLimit-Limit": { description: "Requests allowed in a burst (draft-ietf-httpapi-ratelimit-headers-07)", schema: { type: "integer" as const } },
  "RateLimit-Remaining": { description: "Requests left in the current burst", schema: { type: "integer" as const } },
  "RateLimit-Reset": { description: "Seconds until the burst is fully available again", schema: { type: "integer" as const } },
};
const retryAfter = { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" as const } } };

/** Error responses by status, each with the Error schema and the codes it may carry. */
export function errors(...statuses: (keyof typeof WHY)[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: `${WHY[s]}. Codes: ${codesFor(s).join(", ")}`,
        content: { "application/json": { schema: ErrorBody } },
        ...(s === 429 ? { headers: { ...retryAfter, ...rateHeaders } } : s === 503 ? { headers: retryAfter } : {}),
      },
    ]),
  ) as Record<number, { description: string; content: { "application/json": { schema: typeof ErrorBody } } }>;
}

/** Every operation behind a token can answer these. */
export const AUTH_ERRORS = [401, 403, 429] as const;

/** RateLimit-* on every answer of a rate-limited (token) route. */
export const RATE_LIMIT_HEADERS = rateHeaders;

type ResponseHeaders = Extract<NonNullable<Extract<RouteConfig["responses"][number], { description: string }>["headers"]>, { [k: string]: unknown }>;
type HeaderDoc = { description: string; required?: boolean; schema: { type: "integer" | "string" } };

/** A JSON answer of `schema`. */
export const json = <T extends z.ZodType>(schema: T, description: string, headers?: Record<string, HeaderDoc>) => ({
  description,
  content: { "application/json": { schema } },
  ...(headers ? { headers: headers as ResponseHeaders } : {}),
});

/** The request bodies' schemas by component name; the document registers them (document.ts). */
export const BODY_COMPONENTS = new Map<string, z.ZodType>();

/**
 * A JSON request body, documented as a reference to its component. The handler validates it with
 * the same zod schema (readJsonBody and parseBody, for the size, depth and error-code rules).
 */
export function jsonBody(component: string, schema: z.ZodType, description?: string, others: Record<string, [string, z.ZodType]> = {}) {
  BODY_COMPONENTS.set(component, named(schema, component));
  const content: Record<string, { schema: { $ref: string } }> = { "application/json": { schema: { $ref: `#/components/schemas/${component}` } } };
  // Other media types the operation reads (e.g. a merge patch), each with its own component.
  for (const [mediaType, [name, other]] of Object.entries(others)) {
    BODY_COMPONENTS.set(name, named(other, name));
    content[mediaType] = { schema: { $ref: `#/components/schemas/${name}` } };
  }
  return { required: true, ...(description ? { description } : {}), content };
}

export const etagHeader = {
  ETag: { description: 'An entity tag: the version, e.g. "3", or W/"<hash>" for pages and views', required: true, schema: { type: "string" as const } },
};
export const locationHeader = { Location: { description: "The new resource's path", required: true, schema: { type: "string" as const } } };

/** `{id}` of a resource: documented as a uuid, checked by the handler (anything else is a 404, never a cast error). */
export const idParam = (description: string) => z.object({ id: z.string().openapi({ format: "uuid", description }) });

export const ifMatchHeader = (required: boolean) => ({
  name: "If-Match",
  in: "header" as const,
  required,
  description: 'The version you read, as its ETag: `"3"`. A stale one answers 412 version_mismatch.',
  schema: { type: "string" as const, example: '"3"' },
});
export const ifNoneMatchHeader = {
  name: "If-None-Match",
  in: "header" as const,
  required: false,
  description: "An ETag you have: 304 Not Modified when it is still current",
  schema: { type: "string" as const },
};
export const idempotencyKeyHeader = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description: "1-200 visible ASCII characters: the same key and body answer the first result again (Idempotent-Replayed: true)",
  schema: { type: "string" as const, minLength: 1, maxLength: 200 },
};
/** `?selector=`: a Selector as JSON, parsed and compiled by the handler (422 invalid_selector). */
export const selectorQuery = {
  name: "selector",
  in: "query" as const,
  required: false,
  description: "A Selector as JSON (schema_name, tags, context_match with JSONPath), at most 16,384 characters",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Selector" } } },
};
export const notModified = { description: "Not Modified: the If-None-Match ETag is current", headers: etagHeader as ResponseHeaders };
