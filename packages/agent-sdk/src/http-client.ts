import type { z } from "zod";
import { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "./errors.ts";
import type { Breadcrumb, CreateBreadcrumb, HistoryItem } from "./known.ts";
import { breadcrumbSchema, eventsPageSchema, historyItemSchema, llmViewSchema, pageSchema, type LlmView, type PatchBreadcrumb } from "./wire.ts";
import type { BreadcrumbEvent } from "./known.ts";

export interface HttpOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:8081 */
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Per-request timeout; the API answers in milliseconds, so a long wait means it is gone. */
  timeoutMs?: number;
}

/** Every call takes a signal: aborting it rejects the call with the signal's reason. */
export interface CallOptions {
  signal?: AbortSignal;
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

export interface Page<T> {
  items: T[];
  next_cursor?: string | null | undefined;
}

export interface EventsPage {
  items: BreadcrumbEvent[];
  next_after?: number | null | undefined;
  has_more?: boolean | undefined;
}

const listSchema = pageSchema(breadcrumbSchema);
const listViewSchema = pageSchema(llmViewSchema);
const historySchema = pageSchema(historyItemSchema);

type Query = Record<string, string | number | string[] | undefined>;

/** The HTTP half of the SDK: typed calls for the crumbs API's breadcrumb and event routes. */
export class CrumbsHttp {
  private readonly base: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: HttpOptions) {
    this.base = opts.url.replace(/\/+$/, "");
    this.fetchFn = opts.fetch ?? globalThis.fetch;
  }

  /** With a known schema_name the context is checked against its type at compile time. */
  async create<S extends string>(body: CreateBreadcrumb<S>, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<Breadcrumb<S>> {
    const headers: Record<string, string> = {};
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    return this.request("POST", "/v1/breadcrumbs", { body, headers, schema: breadcrumbSchema, signal: opts.signal }) as Promise<Breadcrumb<S>>;
  }

  async get(id: string, opts: CallOptions = {}): Promise<Breadcrumb> {
    return this.request("GET", path(id), { schema: breadcrumbSchema, signal: opts.signal }) as Promise<Breadcrumb>;
  }

  /** The breadcrumb as a model sees it, after its llm_hints. */
  async getLlmView(id: string, opts: CallOptions = {}): Promise<LlmView> {
    return this.request("GET", path(id), { query: { view: "llm" }, schema: llmViewSchema, signal: opts.signal });
  }

  /** `ifMatch` is the version you read: a newer one on the server rejects with ApiResponseError version_mismatch. */
  async patch(id: string, body: PatchBreadcrumb, opts: CallOptions & { ifMatch: number; idempotencyKey?: string }): Promise<Breadcrumb> {
    const headers: Record<string, string> = { "if-match": `"${opts.ifMatch}"` };
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    return this.request("PATCH", path(id), { body, headers, schema: breadcrumbSchema, signal: opts.signal }) as Promise<Breadcrumb>;
  }

  async delete(id: string, opts: CallOptions & { ifMatch?: number } = {}): Promise<void> {
    const headers: Record<string, string> = {};
    if (opts.ifMatch !== undefined) headers["if-match"] = `"${opts.ifMatch}"`;
    await this.request("DELETE", path(id), { headers, schema: undefined, signal: opts.signal });
  }

  /** With a literal schema_name the items' contexts are typed by it. */
  async list<S extends string = string>(query: ListQuery<S> = {}, opts: CallOptions = {}): Promise<Page<Breadcrumb<S>>> {
    return this.request("GET", "/v1/breadcrumbs", { query: listQuery(query), schema: listSchema, signal: opts.signal }) as Promise<unknown> as Promise<Page<Breadcrumb<S>>>;
  }

  async listLlmViews(query: ListQuery = {}, opts: CallOptions = {}): Promise<Page<LlmView>> {
    return this.request("GET", "/v1/breadcrumbs", { query: { ...listQuery(query), view: "llm" }, schema: listViewSchema, signal: opts.signal });
  }

  /** Every breadcrumb matching the query, following cursors. */
  async *listAll<S extends string = string>(query: Omit<ListQuery<S>, "cursor"> = {}, opts: CallOptions = {}): AsyncGenerator<Breadcrumb<S>> {
    let cursor: string | undefined;
    do {
      const page = await this.list<S>({ limit: 500, ...query, cursor }, opts);
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async history(id: string, opts: CallOptions & { cursor?: string; limit?: number } = {}): Promise<Page<HistoryItem>> {
    return this.request("GET", `${path(id)}/history`, {
      query: { cursor: opts.cursor, limit: opts.limit },
      schema: historySchema,
      signal: opts.signal,
    }) as Promise<Page<HistoryItem>>;
  }

  async events(query: EventsQuery = {}, opts: CallOptions = {}): Promise<EventsPage> {
    return this.request("GET", "/v1/events", {
      query: {
        after: query.after,
        since: timeParam(query.since),
        until: timeParam(query.until),
        selector: query.selector === undefined ? undefined : JSON.stringify(query.selector),
        limit: query.limit,
      },
      schema: eventsPageSchema,
      signal: opts.signal,
    }) as Promise<EventsPage>;
  }

  private async request<T extends z.ZodType | undefined>(
    method: string,
    route: string,
    opts: { body?: unknown; headers?: Record<string, string>; query?: Query; schema: T; signal: AbortSignal | undefined },
  ): Promise<T extends z.ZodType ? z.infer<T> : undefined> {
    opts.signal?.throwIfAborted();
    const url = new URL(this.base + route);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(one));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.token}`, ...opts.headers };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (timeout.aborted) throw new ApiTimeoutError(`${method} ${route}: no answer within ${timeoutMs} ms`);
      throw new ApiUnreachableError(`${method} ${route}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (!res.ok) throw await ApiResponseError.fromResponse(res);
    if (res.status === 204 || opts.schema === undefined) return undefined as never;
    const json: unknown = await res.json().catch(() => {
      throw new ApiResponseError("invalid_response", `${method} ${route}: the API answered something that is not JSON`, res.status);
    });
    const parsed = opts.schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiResponseError("invalid_response", `${method} ${route}: unexpected response: ${parsed.error.message}`, res.status);
    }
    return parsed.data as never;
  }
}

const path = (id: string) => `/v1/breadcrumbs/${encodeURIComponent(id)}`;

function listQuery(q: ListQuery): Query {
  return {
    schema_name: q.schema_name,
    tag: q.tag,
    any_tag: q.any_tag,
    selector: q.selector === undefined ? undefined : JSON.stringify(q.selector),
    key: q.key,
    title: q.title,
    limit: q.limit,
    cursor: q.cursor,
  };
}

function timeParam(t: string | Date | undefined): string | undefined {
  return t instanceof Date ? t.toISOString() : t;
}
