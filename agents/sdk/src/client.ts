import { connect, type NatsConnection } from "nats";
import { natsServers } from "@crumbs/schemas";
import { CrumbsHttp, type HttpOptions } from "./http-client.ts";
import { natsCredsAuthenticator } from "./nats-creds.ts";
import type { EventSubscription } from "./event-subscription.ts";
import type { Breadcrumb, CreateBreadcrumb } from "./known.ts";
import { replayEvents, type ReplayOptions } from "./replay.ts";
import { replyTo, respondTo } from "./reply.ts";
import type { Selector, SelectorInput } from "./selector.ts";
import { subscribeEvents, type SubscribeOptions } from "./subscribe.ts";

export interface CrumbsClientOptions extends HttpOptions {
  /** NATS server for subscribe(); e.g. nats://127.0.0.1:4222 */
  natsUrl?: string;
  /**
   * NATS credentials for natsUrl: a .creds file's path or its contents (`crumbs keys nats-creds`,
   * or the runner's runner.creds). Needed on a locked server such as the docker compose one.
   */
  natsCreds?: string;
  /** An existing connection instead of natsUrl; the client then leaves it open on close(). */
  nats?: NatsConnection;
}

export interface ConnectNatsOptions {
  /** A .creds file's path or contents; unset means an open server (local dev, tests). */
  creds?: string | undefined;
}

/**
 * Connect to NATS the way every crumbs process does: reconnect forever, quickly.
 * Unreadable or malformed credentials throw NatsCredsError before any connection is tried.
 */
export async function connectNats(
  url: string,
  name = "crumbs-agent",
  opts: ConnectNatsOptions = {},
): Promise<NatsConnection> {
  const authenticator = opts.creds ? natsCredsAuthenticator(opts.creds) : undefined;
  return connect({
    servers: natsServers(url),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    pingInterval: 10_000,
    ...(authenticator ? { authenticator } : {}),
  });
}

/** The SDK: HTTP calls, subscriptions by selector over JetStream, replay, replies. */
export class CrumbsClient extends CrumbsHttp {
  private nc: Promise<NatsConnection> | undefined;
  private readonly ownsNats: boolean;
  private readonly subs = new Set<EventSubscription>();

  constructor(private readonly options: CrumbsClientOptions) {
    super(options);
    if (options.nats) this.nc = Promise.resolve(options.nats);
    this.ownsNats = !options.nats;
  }

  /** The NATS connection, opened on first use. */
  nats(): Promise<NatsConnection> {
    if (!this.nc) {
      if (!this.options.natsUrl) throw new Error("CrumbsClient needs natsUrl (or nats) to subscribe");
      this.nc = connectNats(this.options.natsUrl, "crumbs-agent", { creds: this.options.natsCreds });
    }
    return this.nc;
  }

  /**
   * Events by selector, for `for await (const delivery of sub)`: see EventSubscription. With
   * `durable` or `queue` it resumes where it stopped; `signal` ends it.
   */
  async subscribe<S extends string>(selector: Selector & { schema_name: S }, opts?: SubscribeOptions): Promise<EventSubscription<S>>;
  async subscribe(selector: SelectorInput, opts?: SubscribeOptions): Promise<EventSubscription>;
  async subscribe(selector: SelectorInput, opts: SubscribeOptions = {}): Promise<EventSubscription> {
    const sub = await subscribeEvents(await this.nats(), selector, { http: this, ...opts });
    this.subs.add(sub);
    void sub.closed.finally(() => this.subs.delete(sub));
    return sub;
  }

  replay(selector?: Selector, opts: ReplayOptions = {}) {
    return replayEvents(this, selector, opts);
  }

  reply<S extends string>(trigger: Breadcrumb, body: CreateBreadcrumb<S>, opts: { idempotencyKey: string; signal?: AbortSignal }) {
    return replyTo(this, trigger, body, opts);
  }

  /** Answer a trigger with an agent.response.v1 in its session; written once per trigger version (idempotency key). */
  respond(trigger: Breadcrumb, content: string, opts: { agentId: string; n?: number; signal?: AbortSignal }) {
    return respondTo(this, trigger, content, opts);
  }

  /** Stop every subscription (each loop finishes the event in hand) and close the NATS connection if it is ours. */
  async close(): Promise<void> {
    await Promise.all([...this.subs].map((s) => s.stop()));
    if (this.nc && this.ownsNats) {
      const nc = await this.nc.catch(() => undefined);
      await nc?.drain().catch(() => nc.close());
    }
  }
}
