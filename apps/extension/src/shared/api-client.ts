import * as z from "@crumbs/schemas/zod-mini";

// The few calls the extension makes to the crumbs HTTP API (apps/api/README.md). The worker and
// the extension pages call it with host_permissions, so CORS does not apply.

export class CrumbsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "CrumbsApiError";
  }
}

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

const errorBodySchema = z.object({ error: z.string(), message: z.optional(z.string()), details: z.optional(z.unknown()) });
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
}

export function createApi(opts: { apiUrl: string; token: string; fetch?: typeof fetch; timeoutMs?: number }): CrumbsApi {
  const fetchFn = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const base = opts.apiUrl.replace(/\/+$/, "");

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
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
      throw new CrumbsApiError(0, "unreachable", `the crumbs API at ${base} is unreachable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const err = errorBodySchema.safeParse(json);
      if (err.success) throw new CrumbsApiError(res.status, err.data.error, err.data.message ?? err.data.error, err.data.details);
      throw new CrumbsApiError(res.status, "http_error", `${method} ${path} answered ${res.status}`);
    }
    return json;
  }

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
  };
}
