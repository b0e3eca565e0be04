import { connect, type NatsConnection } from "nats";
import { natsServers, PAGE_CONTEXT_SCHEMA, selectorCanMatchSchema } from "@crumbs/schemas";
import { CrumbsHttp, type HttpOptions } from "./http-client.ts";
import { ApiResponseError } from "./errors.ts";
import { natsCredsAuthenticator } from "./nats-creds.ts";
import { NATS_CONNECTION_DEFAULTS } from "./nats-connection-options.ts";
import { connectWithToken, type TokenNats } from "./token-nats.ts";
import { InterestLease, newHolderId, type InterestLeaseOptions } from "./interest-lease.ts";
import type { EventSubscription } from "./event-subscription.ts";
import type { Breadcrumb, CreateBreadcrumb } from "./known.ts";
import { publishReplay, replayEvents, type PublishReplayOptions, type ReplayOptions, type ReplayPublishResult } from "./replay.ts";
import { replyTo, respondTo } from "./reply.ts";
import type { Selector, SelectorInput } from "./selector.ts";
import { subscribeEvents, type SubscribeOptions } from "./subscribe.ts";

export interface CrumbsClientOptions extends HttpOptions {
  /**
   * NATS servers for subscribe(), e.g. nats://127.0.0.1:4222 (default: `NATS_URL`, else the
   * `servers` the API sends with the credentials).
   */
  natsUrl?: string;
  /**
   * NATS credentials: a .creds file's path or its contents (default: `NATS_CREDS`). Unset, the
   * client asks the API for credentials of the token's owner and renews them before they expire
   * (connectWithToken); an API that mints none (an open dev server) means no credentials.
   */
  natsCreds?: string;
  /** Lifetime in seconds of each NATS credential the client asks the API for (60-86,400; default the API's, 1 h). */
  natsCredentialsTtl?: number;
  /** Where NATS_URL and NATS_CREDS are read; default process.env. */
  env?: Record<string, string | undefined>;
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
    ...NATS_CONNECTION_DEFAULTS,
    ...(authenticator ? { authenticator } : {}),
  });
}

/** The SDK: HTTP calls, subscriptions by selector over JetStream, replay, replies. */
export class CrumbsClient extends CrumbsHttp {
  private nc: Promise<NatsConnection> | undefined;
  private readonly ownsNats: boolean;
  private readonly subs = new Set<EventSubscription>();
  private readonly leases = new Set<InterestLease>();
  private tokenNats: TokenNats | undefined;

  constructor(private readonly options: CrumbsClientOptions) {
    super(options);
    if (options.nats) this.nc = Promise.resolve(options.nats);
    this.ownsNats = !options.nats;
  }

  /** The NATS connection, opened on first use. */
  nats(): Promise<NatsConnection> {
    this.nc ??= this.openNats();
    return this.nc;
  }

  private async openNats(): Promise<NatsConnection> {
    const env = this.options.env ?? globalThis.process?.env ?? {};
    const natsUrl = this.options.natsUrl ?? env.NATS_URL;
    const creds = this.options.natsCreds ?? env.NATS_CREDS;
    if (creds) {
      if (!natsUrl) throw new Error("NATS_CREDS needs NATS_URL (or natsUrl) too");
      return connectNats(natsUrl, "crumbs-agent", { creds });
    }
    try {
      const session = await connectWithToken(this, { natsUrl, ...(this.options.natsCredentialsTtl ? { ttlSeconds: this.options.natsCredentialsTtl } : {}) });
      this.tokenNats = session;
      return session.nc;
    } catch (err) {
      // 503: this API mints no NATS credentials (no account seed): an open server, as in local dev.
      if (!(err instanceof ApiResponseError && err.status === 503) || !natsUrl) throw err;
      return connectNats(natsUrl, "crumbs-agent");
    }
  }

  /**
   * Events by selector, for `for await (const delivery of sub)`: see EventSubscription. With
   * `durable` or `queue` it resumes where it stopped; `signal` ends it.
   */
  async subscribe<S extends string>(selector: Selector & { schema_name: S }, opts?: SubscribeOptions): Promise<EventSubscription<S>>;
  async subscribe(selector: SelectorInput, opts?: SubscribeOptions): Promise<EventSubscription>;
  async subscribe(selector: SelectorInput, opts: SubscribeOptions = {}): Promise<EventSubscription> {
    const nc = await this.nats();
    // Credentials minted for the token reach only its owner's subjects: a plain subscription
    // (`subjectPrefix`) on every owner's would be refused, so it narrows to that owner.
    const owner = opts.owner ?? (opts.subjectPrefix ? this.tokenNats?.owner : undefined);
    const sub = await subscribeEvents(nc, selector, { http: this, ...opts, ...(owner ? { owner } : {}) });
    this.subs.add(sub);
    const lease = this.leaseFor(selector, opts);
    void sub.closed.finally(() => {
      this.subs.delete(sub);
      void lease?.stop();
    });
    return sub;
  }

  /** The page-interest lease a subscription holds (SubscribeOptions.pageInterest); its failures go to onError. */
  private leaseFor(selector: SelectorInput, opts: SubscribeOptions): InterestLease | undefined {
    const want = opts.pageInterest;
    const list: readonly Selector[] = Array.isArray(selector) ? selector : [selector as Selector];
    // Automatic only for live events: a replay (subjectPrefix) reads history, not the page now.
    const auto = !opts.subjectPrefix && list.some((s) => selectorCanMatchSchema(s, PAGE_CONTEXT_SCHEMA));
    if (want === false || (want === undefined && !auto)) return undefined;
    const o = typeof want === "object" ? want : {};
    const label = `sdk: ${o.label ?? opts.durable ?? opts.queue ?? "subscriber"}`;
    const onError = (err: unknown) => opts.onError?.(err, undefined);
    const lease = this.holdPageInterest({ holder: { id: newHolderId("sdk"), label }, ...(o.extensionId ? { extensionId: o.extensionId } : {}), onError });
    lease.ready.catch(onError);
    return lease;
  }

  /**
   * Holds a browser.context.interest.v1 lease until its `stop()` (or close()): the owner's extension
   * captures the page while one is live. subscribe() does this by itself for a selector that can
   * match page context; this is for a program that reads the page without subscribing to it.
   * `lease.ready` settles with the first write.
   */
  holdPageInterest(opts: Omit<InterestLeaseOptions, "timers">): InterestLease {
    const lease = new InterestLease(this, opts);
    this.leases.add(lease);
    void lease.start().catch(() => {});
    return lease;
  }

  replay(selector?: Selector, opts: ReplayOptions = {}) {
    return replayEvents(this, selector, opts);
  }

  /**
   * Publish history into NATS for agents: each event, in seq order, on
   * `<prefix>.<owner>.<type>.<schema_name>` (`crumbs replay --publish <prefix>`). With the token
   * alone use `replay`: the owner's `REPLAY` stream stores it (once per msg id within its duplicate
   * window) and an agent subscribed with `{subjectPrefix: "replay"}` receives it.
   */
  publishReplay(prefix: string, selector?: Selector, opts: PublishReplayOptions = {}): Promise<ReplayPublishResult> {
    return this.nats().then((nc) => publishReplay(this, nc, prefix, selector, opts));
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
    await Promise.all([...this.leases].map((l) => l.stop()));
    this.tokenNats?.stop();
    if (this.nc && this.ownsNats) {
      const nc = await this.nc.catch(() => undefined);
      await nc?.drain().catch(() => nc.close());
    }
  }
}
