import {
  AckPolicy,
  DeliverPolicy,
  nanos,
  type Consumer,
  type ConsumerConfig,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from "nats";
import { filterSubjectFor, selectorMatcher, type EventKind, type SelectorInput } from "./selector.ts";
import { isReferenceEvent, STREAM_NAME } from "@crumbs/schemas";
import { fullEvent, type ReferenceHttp } from "./reference.ts";
import type { BreadcrumbEvent } from "./wire.ts";

export const STREAM = STREAM_NAME;

export interface DeliveryInfo {
  subject: string;
  streamSeq: number;
  deliveryCount: number;
  redelivered: boolean;
  /** Tell JetStream the handler is still busy, so the event is not handed to another process. */
  working(): void;
}

export type EventHandler = (event: BreadcrumbEvent, info: DeliveryInfo) => unknown;

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
  nakDelayMs?: number;
  /** Events the stream buffers for this process at once. */
  batch?: number;
  /** How long to wait for the CRUMBS stream to exist (the API creates it). */
  streamWaitMs?: number;
  onError?: (err: unknown, event: BreadcrumbEvent | undefined) => void;
  /**
   * The API, to complete reference events (an event larger than the NATS
   * server's max_payload arrives without its breadcrumb): handlers always get
   * the full event. CrumbsClient.subscribe passes itself.
   */
  http?: ReferenceHttp;
  /**
   * Listen on `<prefix>.<owner>.<type>.<schema_name>` with a plain NATS
   * subscription instead of the CRUMBS stream: what `crumbs replay --publish <prefix>`
   * sends. Live only: no durable, no acks.
   */
  subjectPrefix?: string;
}

export interface Subscription {
  readonly consumer: string;
  readonly filterSubject: string;
  /** Stop pulling, let the running handler finish (and ack), then resolve. */
  stop(): Promise<void>;
  /** Resolves when the subscription has stopped. */
  readonly closed: Promise<void>;
}

/**
 * Subscribe to breadcrumb events by selector over JetStream: the subject is
 * narrowed from the selector, the rest is filtered locally by the shared
 * engine. Events are handled one at a time, in stream order; a durable event
 * is acked only after the handler resolves and nak'ed (redelivered later) when
 * it throws.
 */
export async function subscribeEvents(
  nc: NatsConnection,
  selector: SelectorInput,
  handler: EventHandler,
  opts: SubscribeOptions = {},
): Promise<Subscription> {
  const matches = selectorMatcher(selector);
  const filterSubject =
    opts.filterSubject ?? filterSubjectFor(selector, { owner: opts.owner, types: opts.types });
  if (opts.subjectPrefix && opts.subjectPrefix !== "crumbs") {
    return subscribeCore(
      nc,
      `${opts.subjectPrefix}${filterSubject.slice("crumbs".length)}`,
      matches,
      handler,
      opts,
    );
  }
  const jsm = await nc.jetstreamManager();
  await waitForStream(jsm, opts.streamWaitMs ?? 30_000);
  const name = opts.queue ?? opts.durable;
  const ackWaitMs = opts.ackWaitMs ?? 30_000;
  const js = nc.jetstream();
  let consumer: Consumer;
  if (name) {
    await ensureDurable(jsm, name, {
      filter_subject: filterSubject,
      max_deliver: opts.maxDeliver ?? 5,
      ack_wait: nanos(ackWaitMs),
      ...deliverConfig(opts.deliver),
    });
    consumer = await js.consumers.get(STREAM, name);
  } else {
    const d = deliverConfig(opts.deliver);
    consumer = await js.consumers.get(STREAM, {
      filterSubjects: filterSubject,
      deliver_policy: d.deliver_policy,
      ...(d.opt_start_time ? { opt_start_time: d.opt_start_time } : {}),
    });
  }
  const messages = await consumer.consume({ max_messages: opts.batch ?? (name ? 8 : 256) });
  const durable = Boolean(name);
  const recent = new RecentSet(10_000);
  const closed = (async () => {
    for await (const msg of messages) {
      await deliver(msg);
    }
  })();

  async function deliver(msg: JsMsg): Promise<void> {
    const seq = msg.info.streamSequence;
    if (recent.has(seq)) {
      // Handled and acked before, but the ack was lost (reconnect): do not repeat it.
      if (durable) msg.ack();
      return;
    }
    let event: BreadcrumbEvent;
    let payload: unknown;
    try {
      payload = msg.json();
      event = await fullEvent(payload, opts.http);
    } catch (err) {
      opts.onError?.(err, undefined);
      // A reference the API could not complete (yet) is tried again; a malformed payload never will parse.
      if (durable) {
        if (isReferenceEvent(payload)) msg.nak(opts.nakDelayMs ?? 1_000);
        else msg.term("invalid payload");
      }
      return;
    }
    if (!matches(event.breadcrumb)) {
      if (durable) msg.ack();
      return;
    }
    const info: DeliveryInfo = {
      subject: msg.subject,
      streamSeq: seq,
      deliveryCount: msg.info.redeliveryCount,
      redelivered: msg.info.redelivered,
      working: () => durable && msg.working(),
    };
    const keepAlive = durable ? setInterval(() => msg.working(), Math.max(500, ackWaitMs / 3)) : undefined;
    try {
      await handler(event, info);
    } catch (err) {
      opts.onError?.(err, event);
      if (durable) msg.nak(opts.nakDelayMs ?? 1_000);
      return;
    } finally {
      clearInterval(keepAlive);
    }
    recent.add(seq);
    if (durable) await msg.ackAck().catch((err: unknown) => opts.onError?.(err, event));
  }

  return {
    consumer: name ?? "(ordered)",
    filterSubject,
    closed,
    async stop() {
      messages.stop();
      await closed.catch(() => {});
    },
  };
}

function subscribeCore(
  nc: NatsConnection,
  subject: string,
  matches: (b: BreadcrumbEvent["breadcrumb"]) => boolean,
  handler: EventHandler,
  opts: SubscribeOptions,
): Subscription {
  const sub = nc.subscribe(subject);
  const closed = (async () => {
    let n = 0;
    for await (const msg of sub) {
      let event: BreadcrumbEvent;
      try {
        event = await fullEvent(msg.json(), opts.http);
      } catch (err) {
        opts.onError?.(err, undefined);
        continue;
      }
      if (!matches(event.breadcrumb)) continue;
      const info = {
        subject: msg.subject,
        streamSeq: ++n,
        deliveryCount: 1,
        redelivered: false,
        working() {},
      };
      try {
        await handler(event, info);
      } catch (err) {
        opts.onError?.(err, event);
      }
    }
  })();
  return {
    consumer: "(core)",
    filterSubject: subject,
    closed,
    async stop() {
      await sub.drain().catch(() => sub.unsubscribe());
      await closed.catch(() => {});
    },
  };
}

function deliverConfig(deliver: SubscribeOptions["deliver"]): {
  deliver_policy: DeliverPolicy;
  opt_start_time?: string;
} {
  if (deliver === "all") return { deliver_policy: DeliverPolicy.All };
  if (deliver && typeof deliver === "object") {
    const since =
      deliver.since instanceof Date ? deliver.since.toISOString() : new Date(deliver.since).toISOString();
    return { deliver_policy: DeliverPolicy.StartTime, opt_start_time: since };
  }
  return { deliver_policy: DeliverPolicy.New };
}

/** Create the durable consumer, or reuse it; several processes may race here. */
async function ensureDurable(
  jsm: JetStreamManager,
  name: string,
  config: Partial<ConsumerConfig>,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const existing = await jsm.consumers.info(STREAM, name).catch(() => undefined);
    if (existing) {
      if (existing.config.filter_subject !== config.filter_subject) {
        await jsm.consumers.update(STREAM, name, { filter_subject: config.filter_subject });
      }
      return;
    }
    try {
      await jsm.consumers.add(STREAM, { ...config, durable_name: name, ack_policy: AckPolicy.Explicit });
      return;
    } catch (err) {
      // Another replica created it first with its own start time: use theirs.
      if (attempt >= 3) throw err;
    }
  }
}

async function waitForStream(jsm: JetStreamManager, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await jsm.streams.info(STREAM);
      return;
    } catch (err) {
      if (Date.now() > deadline) {
        throw new Error(
          `JetStream stream ${STREAM} does not exist (is the crumbs API running?): ${String(err)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** A bounded set of recently handled stream sequences. */
class RecentSet {
  private readonly set = new Set<number>();
  constructor(private readonly max: number) {}
  has(n: number): boolean {
    return this.set.has(n);
  }
  add(n: number): void {
    this.set.add(n);
    if (this.set.size > this.max) this.set.delete(this.set.values().next().value as number);
  }
}
