import { ApiResponseError, ApiUnreachableError } from "@crumbs/schemas/api-errors";
import * as z from "@crumbs/schemas/zod-mini";
import { MERGE_PATCH_CONTENT_TYPE } from "@crumbs/schemas/merge-patch";

// The few calls the extension makes to the crumbs HTTP API (services/api/README.md). The worker and
// the extension pages call it with host_permissions, so CORS does not apply. Failures are the
// clients' shared errors (@crumbs/schemas/api-errors): ApiResponseError for an error answer,
// ApiUnreachableError when the API cannot be reached.

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

/** One call to the API: the parsed JSON answer (undefined for an empty one), or ApiResponseError / ApiUnreachableError. */
export async function callApi(
  opts: ApiOptions,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const fetchFn = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const base = opts.apiUrl.replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetchFn(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
  } catch (e) {
    throw new ApiUnreachableError(`the crumbs API at ${base} is unreachable: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const text = await res.text();
  if (!res.ok) throw ApiResponseError.fromBody(res.status, text, res.statusText);
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function createApi(opts: ApiOptions): CrumbsApi {
  const base = opts.apiUrl.replace(/\/+$/, "");
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(opts, method, path, body, headers);
  const one = (v: unknown) => breadcrumbSchema.parse(v);

  return {
    url: base,
    get: async (id) => one(await call("GET", `/v1/breadcrumbs/${encodeURIComponent(id)}`)),
    async list(q) {
      const p = new URLSearchParams();
      if (q.schema_name) p.set("schema_name", q.schema_name);
      for (const t of q.tag ?? []) p.append("tag", t);
      if (q.key) p.set("key", q.key);
      if (q.selector) p.set("selector", JSON.stringify(q.selector));
      if (q.limit) p.set("limit", String(q.limit));
      return listSchema.parse(await call("GET", `/v1/breadcrumbs?${p}`)).items;
    },
    create: async (body, key) => one(await call("POST", "/v1/breadcrumbs", body, key ? { "idempotency-key": key } : {})),
    patch: async (id, version, body) =>
      one(await call("PATCH", `/v1/breadcrumbs/${encodeURIComponent(id)}`, body, { "if-match": `"${version}"` })),
    mergePatch: async (id, version, body) =>
      one(
        await call("PATCH", `/v1/breadcrumbs/${encodeURIComponent(id)}`, body, {
          "if-match": `"${version}"`,
          "content-type": MERGE_PATCH_CONTENT_TYPE,
        }),
      ),
  };
}
