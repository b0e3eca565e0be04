import type { CreateKeyRequest, NatsCredentialsRequest, OutboxRetryBody } from "@crumbs/schemas";
import { ApiResponseError, EVENTS_NDJSON } from "@crumbs/schemas";
import { readEventStream, type EventStreamItem } from "./event-stream.ts";
import { ndjsonLines } from "./ndjson-lines.ts";
import { createHttpClient, urlOf, type HttpClient, type HttpClientOptions } from "./http/http-client.ts";
import { nodeGet } from "./node-get.ts";
import * as routes from "./http/routes.ts";
import type { EventsQuery, EventStreamQuery, ListQuery } from "./http/routes.ts";
import type { Breadcrumb, BreadcrumbEvent, CreateBreadcrumb, HistoryItem } from "./known.ts";
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

export type { EventsQuery, ListQuery };

export interface HttpOptions extends HttpClientOptions {
  token: string;
}

/** Every call takes a signal: aborting it rejects the call with the signal's reason. */
export interface CallOptions {
  signal?: AbortSignal;
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

/**
 * The HTTP half of the SDK: a typed call for each route of the crumbs API, each the route table's
 * call (`@crumbs/agent-sdk/http`) sent by its fetch client, with the answer checked by the SDK's
 * loose schemas (wire.ts).
 */
export class CrumbsHttp {
  private readonly client: HttpClient;

  constructor(private readonly opts: HttpOptions) {
    this.client = createHttpClient(opts);
  }

  /** The API's base URL, without a trailing slash. */
  get baseUrl(): string {
    return this.client.baseUrl;
  }

  /** With a known schema_name the context is checked against its type at compile time. */
  async create<S extends string>(body: CreateBreadcrumb<S>, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<Breadcrumb<S>> {
    return this.client.json(routes.createBreadcrumb(body, opts), breadcrumbSchema, opts) as Promise<Breadcrumb<S>>;
  }

  async get(id: string, opts: CallOptions = {}): Promise<Breadcrumb> {
    return this.client.json(routes.getBreadcrumb(id), breadcrumbSchema, opts) as Promise<Breadcrumb>;
  }

  /** The breadcrumb as a model sees it, after its llm_hints. */
  async getLlmView(id: string, opts: CallOptions = {}): Promise<LlmView> {
    return this.client.json(routes.getBreadcrumb(id, { view: "llm" }), llmViewSchema, opts);
  }

  /** `ifMatch` is the version you read: a newer one on the server rejects with ApiResponseError version_mismatch. */
  async patch(id: string, body: PatchBreadcrumb, opts: CallOptions & { ifMatch: number; idempotencyKey?: string }): Promise<Breadcrumb> {
    return this.client.json(routes.patchBreadcrumb(id, body, opts), breadcrumbSchema, opts) as Promise<Breadcrumb>;
  }

  async delete(id: string, opts: CallOptions & { ifMatch?: number } = {}): Promise<void> {
    await this.client.send(routes.deleteBreadcrumb(id, opts), opts);
  }

  /** With a literal schema_name the items' contexts are typed by it. */
  async list<S extends string = string>(query: ListQuery<S> = {}, opts: CallOptions = {}): Promise<Page<Breadcrumb<S>>> {
    return this.client.json(routes.listBreadcrumbs(query), listSchema, opts) as Promise<unknown> as Promise<Page<Breadcrumb<S>>>;
  }

  async listLlmViews(query: ListQuery = {}, opts: CallOptions = {}): Promise<Page<LlmView>> {
    return this.client.json(routes.listBreadcrumbs({ ...query, view: "llm" }), listViewSchema, opts);
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
    const call = routes.breadcrumbHistory(id, { cursor: opts.cursor, limit: opts.limit });
    return this.client.json(call, historySchema, opts) as Promise<Page<HistoryItem>>;
  }

  async events(query: EventsQuery = {}, opts: CallOptions = {}): Promise<EventsPage> {
    return this.client.json(routes.listEvents(query), eventsPageSchema, opts) as Promise<EventsPage>;
  }

  /**
   * `GET /v1/events` streamed (`Accept: application/x-ndjson`): its lines as they arrive, in the
   * batches each chunk completes, undecoded. Without a timeout once the headers are in; the
   * caller reads the closing line (replay-lines.ts).
   */
  async *eventLines(query: EventsQuery = {}, opts: CallOptions = {}): AsyncGenerator<Uint8Array[]> {
    const listed = routes.listEvents(query);
    const call = { ...listed, headers: { ...listed.headers, accept: EVENTS_NDJSON } };
    // An API that does not stream answers a JSON page, whose one line would read as a closing line.
    const notNdjson = (type: string | null | undefined, status: number) =>
      new ApiResponseError("invalid_response", `GET /v1/events: asked for ${EVENTS_NDJSON}, got ${type}`, status);
    // Through node:http unless a fetch of one's own was given (a test's): see node-get.ts.
    if (this.opts.fetch === undefined || this.opts.fetch === globalThis.fetch) {
      const res = await nodeGet(urlOf(this.client.baseUrl, call), {
        headers: this.client.headersOf(call),
        signal: opts.signal,
        timeoutMs: this.client.timeoutMs,
        name: `${call.method} ${call.path}`,
        baseUrl: this.client.baseUrl,
      });
      const type = res.headers["content-type"];
      if (!type?.startsWith(EVENTS_NDJSON)) {
        res.destroy();
        throw notNdjson(type, res.statusCode ?? 0);
      }
      try {
        yield* ndjsonLines(res);
      } catch (err) {
        // Node ends an aborted body with its own AbortError; fetch, and so this call, rejects with the signal's reason.
        if (opts.signal?.aborted) throw opts.signal.reason;
        throw err;
      }
      return;
    }
    const res = await this.client.send(call, { signal: opts.signal, stream: true });
    const type = res.headers.get("content-type");
    if (!type?.startsWith(EVENTS_NDJSON)) {
      await res.body?.cancel();
      throw notNdjson(type, res.status);
    }
    if (res.body) yield* ndjsonLines(res.body);
  }

  /**
   * `GET /v1/events/stream` once: the items of one connection, without a timeout once it is open,
   * until the server ends it or `signal` aborts. Reconnecting is the caller's: from the last
   * item's `lastEventId`, so nothing is missed.
   */
  async *streamEvents(query: EventStreamQuery = {}, opts: CallOptions = {}): AsyncGenerator<EventStreamItem> {
    const res = await this.client.send(routes.eventStream(query), { signal: opts.signal, stream: true });
    if (res.body) yield* readEventStream(res.body);
  }

  // API keys (admin scope). The token of a new key is in createKey's answer only.

  async createKey(body: CreateKeyRequest, opts: CallOptions = {}): Promise<NewApiKey> {
    return this.client.json(routes.createKey(body), newApiKeySchema, opts);
  }

  /** Without `owner`, the admin of owner "default" sees every owner's keys; another admin its own. */
  async listKeys(query: { owner?: string } = {}, opts: CallOptions = {}): Promise<ApiKeyList> {
    return this.client.json(routes.listKeys(query), apiKeyListSchema, opts);
  }

  async getKey(id: string, opts: CallOptions = {}): Promise<ApiKey> {
    return this.client.json(routes.getKey(id), apiKeySchema, opts);
  }

  async revokeKey(id: string, opts: CallOptions = {}): Promise<void> {
    await this.client.send(routes.revokeKey(id), opts);
  }

  /** NATS credentials limited to this token's owner (subscribe scope); an empty body asks for the defaults. */
  async natsCredentials(body: NatsCredentialsRequest = {}, opts: CallOptions = {}): Promise<NatsCredentials> {
    return this.client.json(routes.natsCredentials(body), natsCredentialsSchema, opts);
  }

  // The relay's parked (dead-letter) outbox rows: the admin of owner "default" only.

  async listParkedOutbox(query: { limit?: number; after?: number } = {}, opts: CallOptions = {}): Promise<ParkedOutboxPage> {
    return this.client.json(routes.listParkedOutbox(query), parkedOutboxPageSchema, opts);
  }

  async retryParkedOutbox(body: OutboxRetryBody, opts: CallOptions = {}): Promise<{ retried: number[] }> {
    return this.client.json(routes.retryParkedOutbox(body), outboxRetryResultSchema, opts);
  }

  /** How many live breadcrumbs this token's owner has per schema. */
  async schemaCounts(opts: CallOptions = {}): Promise<SchemaCounts> {
    return this.client.json(routes.schemaCounts(), schemaCountsSchema, opts);
  }

  /** The JetStream consumers the runner keeps for the agent with this agent_id. */
  async agentConsumers(agentId: string, opts: CallOptions = {}): Promise<AgentConsumerList> {
    return this.client.json(routes.agentConsumers(agentId), agentConsumerListSchema, opts);
  }
}
