import { z } from "zod";
import { ApiResponseError, ApiUnreachableError } from "./errors.ts";
import {
  breadcrumbSchema,
  eventsPageSchema,
  historyItemSchema,
  llmViewSchema,
  pageSchema,
  type Breadcrumb,
  type CreateBreadcrumb,
  type EventsPage,
  type LlmView,
  type PatchBreadcrumb,
} from "./wire.ts";

export interface HttpOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:8081 */
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Per-request timeout; the API answers in milliseconds, so a long wait means it is gone. */
  timeoutMs?: number;
}

export interface ListQuery {
  schema_name?: string;
  tag?: string[];
  any_tag?: string[];
  /** A selector object; sent as JSON. */
  selector?: unknown;
  key?: string;
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

const listSchema = pageSchema(breadcrumbSchema);
const listViewSchema = pageSchema(llmViewSchema);
const historySchema = pageSchema(historyItemSchema);

type Query = Record<string, string | number | string[] | undefined>;

/** The HTTP half of the SDK: typed calls for every route of the crumbs API. */
export class CrumbsHttp {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: HttpOptions) {
    this.base = opts.url.replace(/\/+$/, "");
    this.fetchFn = opts.fetch ?? globalThis.fetch;
  }

  async create(body: CreateBreadcrumb, opts: { idempotencyKey?: string } = {}): Promise<Breadcrumb> {
    const headers: Record<string, string> = {};
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    return this.request("POST", "/v1/breadcrumbs", { body, headers, schema: breadcrumbSchema });
  }

  async get(id: string): Promise<Breadcrumb> {
    return this.request("GET", `/v1/breadcrumbs/${encodeURIComponent(id)}`, { schema: breadcrumbSchema });
  }

  /** The breadcrumb as a model sees it, after its llm_hints. */
  async getLlmView(id: string): Promise<LlmView> {
    return this.request("GET", `/v1/breadcrumbs/${encodeURIComponent(id)}`, {
      query: { view: "llm" },
      schema: llmViewSchema,
    });
  }

  async patch(id: string, body: PatchBreadcrumb, opts: { ifMatch: number }): Promise<Breadcrumb> {
    return this.request("PATCH", `/v1/breadcrumbs/${encodeURIComponent(id)}`, {
      body,
      headers: { "if-match": `"${opts.ifMatch}"` },
      schema: breadcrumbSchema,
    });
  }

  async delete(id: string, opts: { ifMatch?: number } = {}): Promise<void> {
    const headers: Record<string, string> = {};
    if (opts.ifMatch !== undefined) headers["if-match"] = `"${opts.ifMatch}"`;
    await this.request("DELETE", `/v1/breadcrumbs/${encodeURIComponent(id)}`, {
      headers,
      schema: z.unknown(),
    });
  }

  async list(
    query: ListQuery = {},
  ): Promise<{ items: Breadcrumb[]; next_cursor?: string | null | undefined }> {
    return this.request("GET", "/v1/breadcrumbs", { query: listQuery(query), schema: listSchema });
  }

  async listLlmViews(
    query: ListQuery = {},
  ): Promise<{ items: LlmView[]; next_cursor?: string | null | undefined }> {
    return this.request("GET", "/v1/breadcrumbs", {
      query: { ...listQuery(query), view: "llm" },
      schema: listViewSchema,
    });
  }

  /** Every breadcrumb matching the query, following cursors. */
  async *listAll(query: Omit<ListQuery, "cursor"> = {}): AsyncGenerator<Breadcrumb> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ limit: 500, ...query, cursor });
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async history(id: string, opts: { cursor?: string; limit?: number } = {}) {
    return this.request("GET", `/v1/breadcrumbs/${encodeURIComponent(id)}/history`, {
      query: { cursor: opts.cursor, limit: opts.limit },
      schema: historySchema,
    });
  }

  async events(query: EventsQuery = {}): Promise<EventsPage> {
    return this.request("GET", "/v1/events", {
      query: {
        after: query.after,
        since: timeParam(query.since),
        until: timeParam(query.until),
        selector: query.selector === undefined ? undefined : JSON.stringify(query.selector),
        limit: query.limit,
      },
      schema: eventsPageSchema,
    });
  }

  private async request<T extends z.ZodType>(
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; query?: Query; schema: T },
  ): Promise<z.infer<T>> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.token}`, ...opts.headers };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new ApiUnreachableError(
        `${method} ${path}: ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    if (!res.ok) throw await ApiResponseError.fromResponse(res);
    if (res.status === 204) return opts.schema.parse(undefined);
    const json: unknown = await res.json().catch(() => {
      throw new ApiResponseError(
        "invalid_response",
        `${method} ${path}: the API answered something that is not JSON`,
        res.status,
      );
    });
    const parsed = opts.schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiResponseError(
        "invalid_response",
        `${method} ${path}: unexpected response: ${parsed.error.message}`,
        res.status,
      );
    }
    return parsed.data;
  }
}

function listQuery(q: ListQuery): Query {
  return {
    schema_name: q.schema_name,
    tag: q.tag,
    any_tag: q.any_tag,
    selector: q.selector === undefined ? undefined : JSON.stringify(q.selector),
    key: q.key,
    limit: q.limit,
    cursor: q.cursor,
  };
}

function timeParam(t: string | Date | undefined): string | undefined {
  return t instanceof Date ? t.toISOString() : t;
}
