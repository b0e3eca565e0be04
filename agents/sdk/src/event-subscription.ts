import { isReferenceEvent } from "@crumbs/schemas";
import type { Breadcrumb, BreadcrumbEvent } from "./known.ts";
import { fullEvent, type ReferenceHttp } from "./reference.ts";

/** One message as the subscription sees it, from JetStream or from a plain NATS subscription. */
export interface RawMessage {
  subject: string;
  seq: number;
  deliveryCount: number;
  redelivered: boolean;
  json(): unknown;
  ack(): Promise<void>;
  /** Acked without waiting for the server's answer: an event that is not for this subscription. */
  skip(): void;
  nak(delayMs: number): void;
  term(reason: string): void;
  working(): void;
}

export interface MessageSource {
  messages: AsyncIterator<RawMessage>;
  /** Stop pulling; the iterator then ends. */
  stop(): Promise<void>;
  durable: boolean;
}

/** One event handed to the loop. It is acked when the loop asks for the next one, or by ack(). */
export interface Delivery<S extends string = string> {
  readonly event: BreadcrumbEvent<S>;
  readonly subject: string;
  readonly streamSeq: number;
  readonly deliveryCount: number;
  readonly redelivered: boolean;
  /** Handled: JetStream will not deliver it again. */
  ack(): Promise<void>;
  /** Not handled: JetStream delivers it again after `delayMs` (default: the subscription's nakDelayMs). */
  nak(delayMs?: number): void;
  /** Still busy: JetStream keeps it from another process a while longer (also done every ackWait/3 until settled). */
  working(): void;
}

export interface IterationOptions {
  matches: (b: Breadcrumb) => boolean;
  http?: ReferenceHttp;
  onError?: (err: unknown, event: BreadcrumbEvent | undefined) => void;
  ackWaitMs: number;
  nakDelayMs: number;
}

/**
 * Breadcrumb events by selector, for `for await`. Events come one at a time in stream order; an
 * event is acked when the loop asks for the next one (or by `delivery.ack()`), and one the loop
 * left without acking (a `break`, a throw) is nak'ed and delivered again. Ending: `stop()`, the
 * subscribe call's AbortSignal, or leaving the loop; `closed` resolves once the loop is done.
 */
export class EventSubscription<S extends string = string> implements AsyncIterable<Delivery<S>> {
  readonly closed: Promise<void>;
  private finish!: () => void;
  private iterated = false;
  private stopping = false;
  private readonly recent = new RecentSet(10_000);
  /** Deliveries the loop moved past unsettled (concurrent handlers): the loop ends once they are settled. */
  private readonly held = new Set<Promise<void>>();

  constructor(
    readonly consumer: string,
    readonly filterSubject: string,
    private readonly source: MessageSource,
    private readonly opts: IterationOptions,
  ) {
    this.closed = new Promise((resolve) => (this.finish = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<Delivery<S>> {
    if (this.iterated) throw new Error("a subscription is iterated by one loop; subscribe again for another");
    this.iterated = true;
    return this.deliveries();
  }

  /** Stop taking events; the delivery in hand can still be acked. Resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.source.stop();
    if (!this.iterated) this.finish();
    await this.closed;
  }

  private async *deliveries(): AsyncGenerator<Delivery<S>> {
    let current: DeliveryImpl<S> | undefined;
    try {
      for (;;) {
        await current?.settle();
        current = undefined;
        if (this.stopping) return;
        const next = await this.source.messages.next();
        if (next.done) return;
        const delivery = await this.prepare(next.value);
        if (!delivery) continue;
        current = delivery;
        yield delivery;
      }
    } finally {
      // The loop left before asking for the next event: it was not handled (unless its handler still runs).
      if (!current?.isHeld) current?.nak();
      await this.source.stop().catch(() => {});
      // Handlers still running may ack what they hold: "closed" means every delivery is settled.
      await Promise.all(this.held);
      this.finish();
    }
  }

  /**
   * A well-formed event whose breadcrumb the selector does not match, decided before the event is
   * validated: an agent among many sees every event of its subject and matches few (one runner
   * with 1,000 agents on chat messages validated each event 1,000 times). What matches, or looks
   * malformed, takes the full path.
   */
  private notForUs(payload: unknown): boolean {
    if (isReferenceEvent(payload) || typeof payload !== "object" || payload === null) return false;
    const b = (payload as { breadcrumb?: unknown }).breadcrumb as Record<string, unknown> | undefined;
    if (typeof b !== "object" || b === null || typeof b.schema_name !== "string" || !Array.isArray(b.tags)) return false;
    if (!b.tags.every((t) => typeof t === "string") || typeof b.context !== "object" || b.context === null) return false;
    try {
      return !this.opts.matches(b as unknown as Breadcrumb);
    } catch {
      return false;
    }
  }

  /** The event of a message, or undefined when there is nothing to hand out (it was settled here). */
  private async prepare(msg: RawMessage): Promise<DeliveryImpl<S> | undefined> {
    const { durable } = this.source;
    if (this.recent.has(msg.seq)) {
      // Handled and acked before, but the ack was lost (reconnect): do not hand it out again.
      if (durable) await msg.ack().catch(() => {});
      return undefined;
    }
    let payload: unknown;
    let event: BreadcrumbEvent;
    try {
      payload = msg.json();
      if (this.notForUs(payload)) {
        // A lost ack only brings it back to be skipped again: no round trip to confirm it.
        if (durable) msg.skip();
        return undefined;
      }
      event = await fullEvent(payload, this.opts.http);
    } catch (err) {
      this.opts.onError?.(err, undefined);
      // A reference the API could not complete (yet) is tried again; a malformed payload never will parse.
      if (durable) {
        if (isReferenceEvent(payload)) msg.nak(this.opts.nakDelayMs);
        else msg.term("invalid payload");
      }
      return undefined;
    }
    if (!this.opts.matches(event.breadcrumb)) {
      if (durable) await msg.ack().catch((err: unknown) => this.opts.onError?.(err, event));
      return undefined;
    }
    return new DeliveryImpl<S>(msg, event as BreadcrumbEvent<S>, durable, this.opts, () => this.recent.add(msg.seq), (settled) => {
      this.held.add(settled);
      void settled.then(() => this.held.delete(settled));
    });
  }
}

/**
 * Let the loop move on without settling this delivery: its handler acks or naks it later
 * (handleEvents with concurrency). The subscription's `closed` then waits for it too.
 */
export function holdDelivery(d: Delivery): void {
  if (!(d instanceof DeliveryImpl)) throw new Error("holdDelivery: not a delivery of an EventSubscription");
  d.hold();
}

class DeliveryImpl<S extends string> implements Delivery<S> {
  readonly subject: string;
  readonly streamSeq: number;
  readonly deliveryCount: number;
  readonly redelivered: boolean;
  private settled: Promise<void> | undefined;
  private held: { done: () => void } | undefined;
  private readonly keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly msg: RawMessage,
    readonly event: BreadcrumbEvent<S>,
    private readonly durable: boolean,
    private readonly opts: IterationOptions,
    private readonly handled: () => void,
    private readonly onHold: (settled: Promise<void>) => void,
  ) {
    this.subject = msg.subject;
    this.streamSeq = msg.seq;
    this.deliveryCount = msg.deliveryCount;
    this.redelivered = msg.redelivered;
    this.keepAlive = durable ? setInterval(() => msg.working(), Math.max(500, opts.ackWaitMs / 3)) : undefined;
    // `for await (const { event, ack } of sub)` takes the methods off the object.
    this.ack = this.ack.bind(this);
    this.nak = this.nak.bind(this);
    this.working = this.working.bind(this);
  }

  get isHeld(): boolean {
    return this.held !== undefined;
  }

  hold(): void {
    if (this.held || this.settled) return;
    let done!: () => void;
    this.onHold(new Promise<void>((resolve) => (done = resolve)));
    this.held = { done };
  }

  ack(): Promise<void> {
    this.settled ??= (async () => {
      clearInterval(this.keepAlive);
      this.handled();
      if (this.durable) await this.msg.ack().catch((err: unknown) => this.opts.onError?.(err, this.event));
      this.held?.done();
    })();
    return this.settled;
  }

  nak(delayMs = this.opts.nakDelayMs): void {
    if (this.settled) return;
    clearInterval(this.keepAlive);
    this.settled = Promise.resolve();
    if (this.durable) this.msg.nak(delayMs);
    this.held?.done();
  }

  working(): void {
    if (this.durable && !this.settled) this.msg.working();
  }

  /** The loop moved on: what was not nak'ed was handled, unless its handler holds it. */
  settle(): Promise<void> {
    return this.held ? Promise.resolve() : this.ack();
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
