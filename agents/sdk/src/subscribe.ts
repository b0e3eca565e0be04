import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type Consumer,
  type ConsumerConfig,
  type JetStreamManager,
  type NatsConnection,
} from "nats";
import { STREAM_NAME } from "@crumbs/schemas";
import { EventSubscription } from "./event-subscription.ts";
import { coreSource, jetStreamSource } from "./message-sources.ts";
import { asPermissionError, NatsPermissionError } from "./nats-permission.ts";
import type { BreadcrumbEvent } from "./known.ts";
import type { ReferenceHttp } from "./reference.ts";
import { filterSubjectFor, selectorMatcher, type EventKind, type Selector, type SelectorInput } from "./selector.ts";

export interface SubscribeOptions {
  /** Name of a durable consumer: the subscription resumes where it stopped, across restarts. */
  durable?: string;
  /** Processes that give the same queue share one durable consumer: each event goes to one of them. */
  queue?: string;
  /** Only this owner's events (the subject's owner token). */
  owner?: string;
  /** Event types to receive; default all three. */
  types?: EventKind[];
  /** Where a consumer that does not exist yet starts: new events only (default), all, or a time. */
  deliver?: "new" | "all" | { since: Date | string };
  /** Override the subject narrowed from the selector (it must cover what the selector matches). */
  filterSubject?: string;
  maxDeliver?: number;
  ackWaitMs?: number;
  /** How long a nak'ed event waits before it is delivered again (default 1 s). */
  nakDelayMs?: number;
  /** Events the stream buffers for this process at once. */
  batch?: number;
  /** How long to wait for the CRUMBS stream to exist (the API creates it). */
  streamWaitMs?: number;
  /** A message that cannot become an event (malformed, or a reference the API cannot complete), or a lost ack. */
  onError?: (err: unknown, event: BreadcrumbEvent | undefined) => void;
  /**
   * The API, to complete reference events (an event larger than the NATS server's max_payload
   * arrives without its breadcrumb): the loop always gets the full event. CrumbsClient passes itself.
   */
  http?: ReferenceHttp;
  /**
   * Listen on `<prefix>.<owner>.<type>.<schema_name>` instead of the CRUMBS stream: what
   * `crumbs replay --publish <prefix>` and `publishReplay` send. Without `durable`/`queue`, a plain
   * NATS subscription (live only, no acks, every publish, duplicates too); with one, a durable
   * consumer on the stream that stores those subjects (an owner's `REPLAY` stream stores
   * `replay.<owner>.>`, each message id once), which must exist.
   */
  subjectPrefix?: string;
  /** Aborting ends the subscription (the loop ends after the event in hand), or the subscribe call itself. */
  signal?: AbortSignal;
  /**
   * CrumbsClient.subscribe only: hold a browser.context.interest.v1 lease while the subscription
   * lives, so the owner's extension captures the page. Default: when the selector can match
   * browser.page.context.v1 (names it, or names no schema) and it is live, not a replay
   * (subjectPrefix). `false` never, `true` or an object always (an agent that reads the
   * page over HTTP but subscribes to other events); `label` is shown in the side panel as
   * "sdk: <label>" (default the durable or queue name), `extensionId` narrows it to one browser.
   */
  pageInterest?: boolean | { label?: string; extensionId?: string };
}

/**
 * Subscribe to breadcrumb events by selector over JetStream: the subject is narrowed from the
 * selector, the rest is filtered locally by the shared engine. Iterate the result with `for await`.
 * A selector with a literal schema_name types the events' contexts by that schema.
 */
export async function subscribeEvents<S extends string>(
  nc: NatsConnection,
  selector: Selector & { schema_name: S },
  opts?: SubscribeOptions,
): Promise<EventSubscription<S>>;
export async function subscribeEvents(nc: NatsConnection, selector: SelectorInput, opts?: SubscribeOptions): Promise<EventSubscription>;
export async function subscribeEvents(
  nc: NatsConnection,
  selector: SelectorInput,
  opts: SubscribeOptions = {},
): Promise<EventSubscription> {
  opts.signal?.throwIfAborted();
  const matches = selectorMatcher(selector);
  const filterSubject = opts.filterSubject ?? filterSubjectFor(selector, { owner: opts.owner, types: opts.types });
  const iteration = {
    matches,
    http: opts.http,
    onError: opts.onError,
    ackWaitMs: opts.ackWaitMs ?? 30_000,
    nakDelayMs: opts.nakDelayMs ?? 1_000,
  };
  let sub: EventSubscription;
  try {
    const name = opts.queue ?? opts.durable;
    const prefixed = opts.subjectPrefix && opts.subjectPrefix !== "crumbs" ? `${opts.subjectPrefix}${filterSubject.slice("crumbs".length)}` : undefined;
    if (prefixed && !name) {
      sub = new EventSubscription("(core)", prefixed, await coreSource(nc, prefixed), iteration);
    } else {
      // A durable on replays lives on the stream that stores them (an owner's REPLAY for replay.<owner>.>).
      const stream = prefixed ? await streamStoring(nc, prefixed) : STREAM_NAME;
      const subject = prefixed ?? filterSubject;
      const consumer = await jetStreamConsumer(nc, stream, name, subject, opts, iteration.ackWaitMs);
      const messages = await consumer.consume({ max_messages: opts.batch ?? (name ? 8 : 256) });
      sub = new EventSubscription(name ?? "(ordered)", subject, jetStreamSource(nc, messages, Boolean(name)), iteration);
    }
  } catch (err) {
    // A refusal by the server's permissions (a JetStream API call, a subscription) is one readable error.
    throw asPermissionError(err);
  }
  const { signal } = opts;
  if (signal) {
    if (signal.aborted) await sub.stop();
    const onAbort = () => void sub.stop();
    signal.addEventListener("abort", onAbort, { once: true });
    void sub.closed.then(() => signal.removeEventListener("abort", onAbort));
  }
  return sub;
}

/** The JetStream stream that stores `subject`: a durable subscription on a subject prefix needs one. */
async function streamStoring(nc: NatsConnection, subject: string): Promise<string> {
  const jsm = await nc.jetstreamManager();
  const found = await jsm.streams.find(subject).catch((err: unknown) => {
    if (asPermissionError(err) instanceof NatsPermissionError) throw err;
    return undefined;
  });
  if (!found) {
    throw new Error(
      `no JetStream stream stores ${subject}: a durable subscription with subjectPrefix needs one ` +
        `(an owner's REPLAY stream stores replay.<owner>.>), or subscribe without durable/queue for live publishes only`,
    );
  }
  return found;
}

async function jetStreamConsumer(
  nc: NatsConnection,
  stream: string,
  name: string | undefined,
  filterSubject: string,
  opts: SubscribeOptions,
  ackWaitMs: number,
): Promise<Consumer> {
  const jsm = await nc.jetstreamManager();
  await waitForStream(jsm, stream, opts.streamWaitMs ?? 30_000, opts.signal);
  const js = nc.jetstream();
  const d = deliverConfig(opts.deliver);
  if (!name) {
    return js.consumers.get(stream, {
      filterSubjects: filterSubject,
      deliver_policy: d.deliver_policy,
      ...(d.opt_start_time ? { opt_start_time: d.opt_start_time } : {}),
    });
  }
  await ensureDurable(jsm, stream, name, { filter_subject: filterSubject, max_deliver: opts.maxDeliver ?? 5, ack_wait: nanos(ackWaitMs), ...d });
  return js.consumers.get(stream, name);
}

function deliverConfig(deliver: SubscribeOptions["deliver"]): { deliver_policy: DeliverPolicy; opt_start_time?: string } {
  if (deliver === "all") return { deliver_policy: DeliverPolicy.All };
  if (deliver && typeof deliver === "object") {
    const since = deliver.since instanceof Date ? deliver.since.toISOString() : new Date(deliver.since).toISOString();
    return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: since };
  }
  return { deliver_policy: DeliverPolicy.New };
}

/** Create the durable consumer, or reuse it; several processes may race here. */
async function ensureDurable(jsm: JetStreamManager, stream: string, name: string, config: Partial<ConsumerConfig>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const existing = await jsm.consumers.info(stream, name).catch(() => undefined);
    if (existing) {
      if (existing.config.filter_subject !== config.filter_subject) {
        await jsm.consumers.update(stream, name, { filter_subject: config.filter_subject });
      }
      return;
    }
    try {
      await jsm.consumers.add(stream, { ...config, durable_name: name, ack_policy: AckPolicy.Explicit });
      return;
    } catch (err) {
      // Another replica created it first with its own start time: use theirs.
      if (attempt >= 3) throw err;
    }
  }
}

async function waitForStream(jsm: JetStreamManager, stream: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    try {
      await jsm.streams.info(stream);
      return;
    } catch (err) {
      // Credentials that may not ask: waiting does not change that.
      if (asPermissionError(err) instanceof NatsPermissionError) throw asPermissionError(err);
      if (Date.now() > deadline) {
        throw new Error(`JetStream stream ${stream} does not exist (is the crumbs API running?): ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
