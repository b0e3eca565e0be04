import type { CreateKeyRequest, NatsCredentialsRequest, OutboxRetryBody } from "@crumbs/schemas";
import { readEventStream, type EventStreamItem, type EventStreamQuery } from "./event-stream.ts";
import type { Breadcrumb, BreadcrumbEvent, CreateBreadcrumb, HistoryItem } from "./known.ts";
import { Transport, type HttpOptions, type Query } from "./transport.ts";
import {
  agentConsumerListSchema,
  apiKeyListSchema,
  apiKeySchema,
  breadcrumbSchema,
  eventsPageSchema,
  historyItemSchema,
  llmViewSchema,
  natsCredentialsSchema,
  newApiKeySchema,
  outboxRetryResultSchema,
  pageSchema,
  parkedOutboxPageSchema,
  schemaCountsSchema,
  type AgentConsumerList,
  type ApiKey,
  type ApiKeyList,
  type LlmView,
  type NatsCredentials,
  type NewApiKey,
  type ParkedOutboxPage,
  type PatchBreadcrumb,
  type SchemaCounts,
} from "./wire.ts";

export type { HttpOptions };

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

/** The HTTP half of the SDK: a typed call for each route of the crumbs API. */
export class CrumbsHttp {
  private readonly transport: Transport;

  constructor(opts: HttpOptions) {
    this.transport = new Transport(opts);
  }

  /** The API's base URL, without a trailing slash. */
  get baseUrl(): string {
    return this.transport.baseUrl;
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
    return this.request("GET", "/v1/events", { query: eventsQuery(query), schema: eventsPageSchema, signal: opts.signal }) as Promise<EventsPage>;
  }

  /**
   * `GET /v1/events` as the bytes the API sent, unchecked: for a caller that forwards each event's
   * JSON as it is (replay-pages.ts checks the fields it uses).
   */
  async eventsBytes(query: EventsQuery = {}, opts: CallOptions = {}): Promise<Uint8Array> {
    const res = await this.transport.send("GET", "/v1/events", { query: eventsQuery(query), signal: opts.signal });
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * `GET /v1/events/stream` once: the items of one connection, without a timeout once it is open,
   * until the server ends it or `signal` aborts. Reconnecting is the caller's: from the last
   * item's `lastEventId`, so nothing is missed.
   */
  async *streamEvents(query: EventStreamQuery = {}, opts: CallOptions = {}): AsyncGenerator<EventStreamItem> {
    const after = query.after === undefined ? undefined : String(query.after);
    const res = await this.transport.send("GET", "/v1/events/stream", {
      query: { selector: jsonParam(query.selector), after },
      headers: { accept: "text/event-stream", ...(after === undefined ? {} : { "last-event-id": after }) },
      signal: opts.signal,
      stream: true,
    });
    if (res.body) yield* readEventStream(res.body);
  }

  // API keys (admin scope). The token of a new key is in createKey's answer only.

  async createKey(body: CreateKeyRequest, opts: CallOptions = {}): Promise<NewApiKey> {
    return this.request("POST", "/v1/keys", { body, schema: newApiKeySchema, signal: opts.signal });
  }

  /** Without `owner`, the admin of owner "default" sees every owner's keys; another admin its own. */
  async listKeys(query: { owner?: string } = {}, opts: CallOptions = {}): Promise<ApiKeyList> {
    return this.request("GET", "/v1/keys", { query, schema: apiKeyListSchema, signal: opts.signal });
  }

  async getKey(id: string, opts: CallOptions = {}): Promise<ApiKey> {
    return this.request("GET", `/v1/keys/${encodeURIComponent(id)}`, { schema: apiKeySchema, signal: opts.signal });
  }

  async revokeKey(id: string, opts: CallOptions = {}): Promise<void> {
    await this.request("DELETE", `/v1/keys/${encodeURIComponent(id)}`, { schema: undefined, signal: opts.signal });
  }

  /** NATS credentials limited to this token's owner (subscribe scope); an empty body asks for the defaults. */
  async natsCredentials(body: NatsCredentialsRequest = {}, opts: CallOptions = {}): Promise<NatsCredentials> {
    return this.request("POST", "/v1/nats/credentials", { body, schema: natsCredentialsSchema, signal: opts.signal });
  }

  // The relay's parked (dead-letter) outbox rows: the admin of owner "default" only.

  async listParkedOutbox(query: { limit?: number; after?: number } = {}, opts: CallOptions = {}): Promise<ParkedOutboxPage> {
    return this.request("GET", "/v1/outbox/parked", { query, schema: parkedOutboxPageSchema, signal: opts.signal });
  }

  async retryParkedOutbox(body: OutboxRetryBody, opts: CallOptions = {}): Promise<{ retried: number[] }> {
    return this.request("POST", "/v1/outbox/retry", { body, schema: outboxRetryResultSchema, signal: opts.signal });
  }

  /** How many live breadcrumbs this token's owner has per schema. */
  async schemaCounts(opts: CallOptions = {}): Promise<SchemaCounts> {
    return this.request("GET", "/v1/stats/schemas", { schema: schemaCountsSchema, signal: opts.signal });
  }

  /** The JetStream consumers the runner keeps for the agent with this agent_id. */
  async agentConsumers(agentId: string, opts: CallOptions = {}): Promise<AgentConsumerList> {
    return this.request("GET", `/v1/agents/${encodeURIComponent(agentId)}/consumers`, { schema: agentConsumerListSchema, signal: opts.signal });
  }

  private request: Transport["request"] = (method, route, opts) => this.transport.request(method, route, opts);
}

const path = (id: string) => `/v1/breadcrumbs/${encodeURIComponent(id)}`;

function listQuery(q: ListQuery): Query {
  return {
    schema_name: q.schema_name,
    tag: q.tag,
    any_tag: q.any_tag,
    selector: jsonParam(q.selector),
    key: q.key,
    title: q.title,
    limit: q.limit,
    cursor: q.cursor,
  };
}

function timeParam(t: string | Date | undefined): string | undefined {
  return t instanceof Date ? t.toISOString() : t;
}

/** A selector as its query parameter: JSON. */
function jsonParam(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

function eventsQuery(q: EventsQuery): Query {
  return { after: q.after, since: timeParam(q.since), until: timeParam(q.until), selector: jsonParam(q.selector), limit: q.limit };
}
