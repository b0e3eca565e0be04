import {
  ApiTimeoutError,
  ApiUnreachableError,
  createBreadcrumb,
  getBreadcrumb,
  createHttpClient,
  type HttpClient,
  listBreadcrumbs,
  patchBreadcrumb,
  type RouteCall,
} from "@crumbs/agent-sdk/http";
import * as z from "@crumbs/schemas/zod-mini";

// The few calls the extension makes to the crumbs HTTP API, through the SDK's fetch-only client
// (`@crumbs/agent-sdk/http`: its route table, headers and errors). The worker and the extension
// pages call it with host_permissions, so CORS does not apply. Failures are the clients' shared
// CrumbsErrors: ApiResponseError for an error answer, ApiUnreachableError and ApiTimeoutError when
// the API is away; each says whether a retry may succeed (`retryable`).

/**
 * The envelope fields the extension reads. Deliberately not @crumbs/schemas' full breadcrumbSchema:
 * that one pulls the llm_hints engine (handlebars, JSONPath) into the worker bundle.
 */
export const breadcrumbSchema = z.looseObject({
  id: z.string(),
  owner: z.string(),
  schema_name: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  context: z.record(z.string(), z.unknown()),
  key: z.optional(z.string()),
  version: z.number().check(z.int(), z.gte(1)),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

const listSchema = z.object({ items: z.array(breadcrumbSchema), next_cursor: z.optional(z.nullable(z.string())) });

export interface CreateBody {
  schema_name: string;
  title: string;
  tags?: string[];
  context: Record<string, unknown>;
  key?: string;
  ttl_seconds?: number;
}
export interface PatchBody {
  title?: string;
  tags?: string[];
  context?: Record<string, unknown>;
}
export interface ListQuery {
  schema_name?: string;
  tag?: string[];
  key?: string;
  selector?: unknown;
  limit?: number;
}

export interface CrumbsApi {
  readonly url: string;
  get(id: string): Promise<Breadcrumb>;
  list(q: ListQuery): Promise<Breadcrumb[]>;
  create(body: CreateBody, idempotencyKey?: string): Promise<Breadcrumb>;
  patch(id: string, version: number, body: PatchBody): Promise<Breadcrumb>;
  /** The same update as a JSON merge patch (RFC 7396): `context` holds only what changed, `null` removes a key. */
  mergePatch(id: string, version: number, body: PatchBody): Promise<Breadcrumb>;
}

export interface ApiOptions {
  apiUrl: string;
  token: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The fetch client for these settings; the worker's calls give up after 15 s unless told otherwise. */
export const httpClient = (opts: ApiOptions): HttpClient =>
  createHttpClient({ url: opts.apiUrl, token: opts.token, fetch: opts.fetch, timeoutMs: opts.timeoutMs ?? 15_000 });

/** The API did not answer at all (down, or no answer in time), as opposed to refusing a call. */
export const apiIsAway = (e: unknown): e is ApiUnreachableError | ApiTimeoutError => e instanceof ApiUnreachableError || e instanceof ApiTimeoutError;

/** The breadcrumbs matching `q` (one page): the side panel's one call, without the rest of createApi in its bundle. */
export const listWith = async (http: HttpClient, q: ListQuery): Promise<Breadcrumb[]> => (await http.json(listBreadcrumbs(q), listSchema)).items;

export function createApi(opts: ApiOptions): CrumbsApi {
  const http = httpClient(opts);
  const one = (call: RouteCall) => http.json(call, breadcrumbSchema);
  return {
    url: http.baseUrl,
    get: (id) => one(getBreadcrumb(id)),
    list: (q) => listWith(http, q),
    create: (body, idempotencyKey) => one(createBreadcrumb(body, { idempotencyKey })),
    patch: (id, version, body) => one(patchBreadcrumb(id, body, { ifMatch: version })),
    mergePatch: (id, version, body) => one(patchBreadcrumb(id, body, { ifMatch: version, merge: true })),
  };
}
