import { z } from "zod";
import {
  breadcrumbEventSchema,
  breadcrumbReferenceEventSchema,
  breadcrumbSchema,
  createBreadcrumbBodySchema,
  patchBreadcrumbBodySchema,
  selectorSchema,
} from "@crumbs/schemas";

const errorSchema = z.object({ error: z.string(), message: z.string(), details: z.unknown().optional() });
const historyItemSchema = breadcrumbSchema.extend({
  seq: z.number().int(),
  event: z.enum(["created", "updated", "deleted"]),
});

const json = (ref: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });
const page = (item: string, next: "next_cursor" | "next_after") => ({
  "application/json": {
    schema: {
      type: "object",
      properties: {
        items: { type: "array", items: { $ref: `#/components/schemas/${item}` } },
        [next]: { type: ["string", "integer", "null"] },
      },
    },
  },
});
const err = (description: string) => ({ description, content: json("Error") });
const errors = {
  "400": err("invalid_json or invalid_request"),
  "401": err("unauthorized"),
  "429": err("rate_limited"),
  "404": err("not_found"),
  "413": err("payload_too_large"),
  "422": err("schema_validation_failed, invalid_llm_hints, invalid_selector or budget_exceeded (the work asked for is too large)"),
  "503": err("unavailable, or budget_exceeded past a request's work deadline (with Retry-After)"),
};
const idParam = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const q = (name: string, type: string, description: string) => ({ name, in: "query", schema: { type }, description });

/** OpenAPI 3.1 document; component schemas come from the same zod schemas that validate requests. */
export function buildOpenApi() {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { unrepresentable: "any", io: "input" });
  return {
    openapi: "3.1.0",
    info: { title: "crumbs API", version: "1" },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        Breadcrumb: schema(breadcrumbSchema),
        CreateBreadcrumb: schema(createBreadcrumbBodySchema),
        PatchBreadcrumb: schema(patchBreadcrumbBodySchema),
        BreadcrumbEvent: schema(breadcrumbEventSchema),
        /** On NATS only: what the relay sends for an event larger than the server's max_payload. */
        BreadcrumbReferenceEvent: schema(breadcrumbReferenceEventSchema),
        HistoryItem: schema(historyItemSchema),
        Selector: schema(selectorSchema),
        Error: schema(errorSchema),
      },
    },
    security: [{ bearer: [] }],
    paths: {
      "/v1/breadcrumbs": {
        post: {
          summary: "Create a breadcrumb",
          parameters: [{ name: "Idempotency-Key", in: "header", schema: { type: "string" } }],
          requestBody: { required: true, content: json("CreateBreadcrumb") },
          responses: {
            "201": { description: "created; ETag: \"1\"", content: json("Breadcrumb") },
            "409": err("key_conflict (details.id, details.version)"),
            ...errors,
          },
        },
        get: {
          summary: "List breadcrumbs, most recently updated first",
          parameters: [
            q("schema_name", "string", "exact schema name"),
            { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } }, description: "all of" },
            { name: "any_tag", in: "query", schema: { type: "array", items: { type: "string" } }, description: "any of" },
            q("selector", "string", "Selector as JSON"),
            q("key", "string", "the breadcrumb's key"),
            q("title", "string", "case-insensitive substring of the title (1..200 characters; % and _ match themselves)"),
            q("limit", "integer", "1..500, default 50"),
            q("cursor", "string", "next_cursor of the previous page"),
            q("view", "string", "llm: each item is its llm view; one failing view fails the page (422)"),
          ],
          responses: { "200": { description: "a page", content: page("Breadcrumb", "next_cursor") }, ...errors },
        },
      },
      "/v1/breadcrumbs/{id}": {
        get: {
          parameters: [idParam, q("view", "string", "llm: the llm_hints view")],
          responses: { "200": { description: "the breadcrumb (or its llm view), with ETag", content: json("Breadcrumb") }, ...errors },
        },
        patch: {
          parameters: [idParam, { name: "If-Match", in: "header", required: true, schema: { type: "string" } }],
          requestBody: { required: true, content: json("PatchBreadcrumb") },
          responses: {
            "200": { description: "the new version, with ETag", content: json("Breadcrumb") },
            "412": err("version_mismatch (details.current_version)"),
            "428": err("precondition_required"),
            ...errors,
          },
        },
        delete: {
          parameters: [idParam, { name: "If-Match", in: "header", schema: { type: "string" } }],
          responses: { "204": { description: "deleted" }, "412": err("version_mismatch"), ...errors },
        },
      },
      "/v1/breadcrumbs/{id}/history": {
        get: {
          parameters: [idParam, q("limit", "integer", "1..500"), q("cursor", "string", "")],
          responses: { "200": { description: "oldest first", content: page("HistoryItem", "next_cursor") }, ...errors },
        },
      },
      "/v1/events": {
        get: {
          parameters: [
            q("after", "integer", "seq"),
            q("since", "string", "ISO time"),
            q("until", "string", "ISO time"),
            q("selector", "string", "Selector as JSON"),
            q("limit", "integer", "1..1000, default 100"),
          ],
          responses: { "200": { description: "events in seq order", content: page("BreadcrumbEvent", "next_after") }, ...errors },
        },
      },
      "/v1/events/stream": {
        get: {
          parameters: [q("after", "integer", "seq"), q("selector", "string", "Selector as JSON")],
          responses: { "200": { description: "text/event-stream; id: <seq>, event: <type>, data: <event JSON>" }, ...errors },
        },
      },
      "/v1/outbox/parked": {
        get: {
          description: "Events the relay parked (admin of owner default)",
          parameters: [q("limit", "integer", "1-1000, default 100"), q("after", "integer", "seq")],
          responses: { "200": { description: "{items: [{seq, owner, subject, msg_id, reason, created_at, parked_at}], next_after}" }, ...errors },
        },
      },
      "/v1/outbox/retry": {
        post: {
          description: "Move a parked row (and its owner's rows held behind it) or all back to the outbox",
          requestBody: { content: { "application/json": { schema: { oneOf: [{ type: "object", properties: { seq: { type: "integer", minimum: 1 } }, required: ["seq"] }, { type: "object", properties: { all: { const: true } }, required: ["all"] }] } } } },
          responses: { "200": { description: "{retried: [seq]}" }, ...errors },
        },
      },
      "/healthz": { get: { security: [], responses: { "200": { description: "alive" } } } },
      "/readyz": { get: { security: [], responses: { "200": { description: "ready" }, "503": err("not ready") } } },
      "/metrics": { get: { security: [], responses: { "200": { description: "Prometheus text" } } } },
    },
  };
}
