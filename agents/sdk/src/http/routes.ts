import type { CreateKeyRequest, NatsCredentialsRequest, OutboxRetryBody } from "@crumbs/schemas";
import { MERGE_PATCH_CONTENT_TYPE } from "@crumbs/schemas/merge-patch";

// The route table of the crumbs HTTP API (services/api/README.md): for each call, its method, path,
// query and the headers it needs (If-Match, Idempotency-Key, the merge-patch media type, the event
// stream's Accept and Last-Event-ID). Pure: a call is data that HttpClient sends, so the SDK, the
// extension and the dashboard name a route in one place. Each route is its own export, so a bundle
// keeps only the routes it calls.

export type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** An array value is sent as the parameter repeated (`tag=a&tag=b`); undefined values are left out. */
export type Query = Record<string, string | number | readonly string[] | undefined>;

/** One request, before the base URL, the token and the timeout are added. */
export interface RouteCall {
  method: Method;
  /** The path with its parameters encoded, e.g. `/v1/breadcrumbs/a%2Fb`. */
  path: string;
  query?: Query;
  headers?: Record<string, string>;
  /** Sent as JSON; the content type is `application/json` unless `headers` name another. */
  body?: unknown;
}

export interface ListQuery<S extends string = string> {
  schema_name?: S;
  tag?: string[];
  any_tag?: string[];
  /** A selector object; sent as JSON. */
  selector?: unknown;
  key?: string;
  title?: string;
  limit?: number;
  cursor?: string;
}

export interface EventsQuery {
  after?: number;
  since?: string | Date;
  until?: string | Date;
  selector?: unknown;
  limit?: number;
}

export interface EventStreamQuery {
  /** A selector object; sent as JSON. */
  selector?: unknown;
  /** Replay the events after this seq first, then go live (also sent as Last-Event-ID). */
  after?: number | string;
}

/** A breadcrumb's `version`, as the API's ETag and If-Match carry it (a quoted string). */
export const etagOf = (version: number): string => `"${version}"`;

const breadcrumbPath = (id: string) => `/v1/breadcrumbs/${encodeURIComponent(id)}`;

/** A selector as its query parameter: JSON. */
const jsonParam = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));
const timeParam = (t: string | Date | undefined): string | undefined => (t instanceof Date ? t.toISOString() : t);
const idempotency = (key: string | undefined): Record<string, string> => (key ? { "idempotency-key": key } : {});

export function createBreadcrumb(body: unknown, opts: { idempotencyKey?: string | undefined } = {}): RouteCall {
  return { method: "POST", path: "/v1/breadcrumbs", body, headers: idempotency(opts.idempotencyKey) };
}

/** `view: "llm"` answers the breadcrumb as a model sees it, after its llm_hints. */
export function getBreadcrumb(id: string, opts: { view?: "llm" } = {}): RouteCall {
  return { method: "GET", path: breadcrumbPath(id), query: { view: opts.view } };
}

/**
 * `ifMatch` is the version the caller read: a newer one on the server answers 412 version_mismatch.
 * `merge` sends the body as a JSON merge patch (RFC 7396): `context` holds only what changed.
 */
export function patchBreadcrumb(id: string, body: unknown, opts: { ifMatch: number; idempotencyKey?: string | undefined; merge?: boolean }): RouteCall {
  const headers = { "if-match": etagOf(opts.ifMatch), ...idempotency(opts.idempotencyKey) };
  return { method: "PATCH", path: breadcrumbPath(id), body, headers: opts.merge ? { ...headers, "content-type": MERGE_PATCH_CONTENT_TYPE } : headers };
}

export function deleteBreadcrumb(id: string, opts: { ifMatch?: number | undefined } = {}): RouteCall {
  return { method: "DELETE", path: breadcrumbPath(id), headers: opts.ifMatch === undefined ? {} : { "if-match": etagOf(opts.ifMatch) } };
}

export function listBreadcrumbs(q: ListQuery & { view?: "llm" } = {}): RouteCall {
  const { selector, ...rest } = q;
  return { method: "GET", path: "/v1/breadcrumbs", query: { ...rest, selector: jsonParam(selector) } };
}

export function breadcrumbHistory(id: string, q: { cursor?: string | undefined; limit?: number | undefined } = {}): RouteCall {
  return { method: "GET", path: `${breadcrumbPath(id)}/history`, query: q };
}

export function listEvents(q: EventsQuery = {}): RouteCall {
  return {
    method: "GET",
    path: "/v1/events",
    query: { after: q.after, since: timeParam(q.since), until: timeParam(q.until), selector: jsonParam(q.selector), limit: q.limit },
  };
}

/** `GET /v1/events/stream`: send it with `{ stream: true }`, so the timeout ends once the headers are in. */
export function eventStream(q: EventStreamQuery = {}): RouteCall {
  const after = q.after === undefined ? undefined : String(q.after);
  return {
    method: "GET",
    path: "/v1/events/stream",
    query: { selector: jsonParam(q.selector), after },
    headers: { accept: "text/event-stream", ...(after === undefined ? {} : { "last-event-id": after }) },
  };
}

// API keys (admin scope).

export const createKey = (body: CreateKeyRequest): RouteCall => ({ method: "POST", path: "/v1/keys", body });
export const listKeys = (q: { owner?: string } = {}): RouteCall => ({ method: "GET", path: "/v1/keys", query: q });
export const getKey = (id: string): RouteCall => ({ method: "GET", path: `/v1/keys/${encodeURIComponent(id)}` });
export const revokeKey = (id: string): RouteCall => ({ method: "DELETE", path: `/v1/keys/${encodeURIComponent(id)}` });

/** An empty body asks for an agent's credentials with the defaults. */
export const natsCredentials = (body: NatsCredentialsRequest = {}): RouteCall => ({ method: "POST", path: "/v1/nats/credentials", body });

// The relay's parked (dead-letter) outbox rows, stats and consumers.

export const listParkedOutbox = (q: { limit?: number; after?: number } = {}): RouteCall => ({ method: "GET", path: "/v1/outbox/parked", query: q });
export const retryParkedOutbox = (body: OutboxRetryBody): RouteCall => ({ method: "POST", path: "/v1/outbox/retry", body });
export const schemaCounts = (): RouteCall => ({ method: "GET", path: "/v1/stats/schemas" });
export const agentConsumers = (agentId: string): RouteCall => ({ method: "GET", path: `/v1/agents/${encodeURIComponent(agentId)}/consumers` });
