import { holdDelivery, type Delivery, type EventSubscription } from "./event-subscription.ts";
import { KeyedLanes } from "./keyed-lanes.ts";
import type { BreadcrumbEvent } from "./known.ts";

export interface HandleEventsOptions<S extends string> {
  onError?: (err: unknown, event: BreadcrumbEvent | undefined) => void;
  /** Handlers running at once (default 1: one event at a time, in stream order). */
  concurrency?: number;
  /** With concurrency: events of one key are handled one after another, in stream order (default: one key for all). */
  orderBy?: (event: BreadcrumbEvent<S>) => string;
}

/**
 * Runs `handler` for each event of a subscription in the background, for a process that hosts
 * handlers and must go on when one fails (the runner): acked when the handler resolves, nak'ed
 * (delivered again later) when it throws. With `concurrency` above 1, up to that many handlers
 * run at once (events of one `orderBy` key still one after another), each event acked when its
 * own handler resolves. Returns the subscription; its stop() lets the running handlers finish first.
 */
export function handleEvents<S extends string>(
  sub: EventSubscription<S>,
  handler: (event: BreadcrumbEvent<S>, delivery: Delivery<S>) => unknown,
  opts: HandleEventsOptions<S> = {},
): EventSubscription<S> {
  const handle = async (d: Delivery<S>) => {
    try {
      await handler(d.event, d);
    } catch (err) {
      opts.onError?.(err, d.event);
      d.nak();
      return;
    }
    await d.ack();
  };
  const limit = opts.concurrency ?? 1;
  void (async () => {
    if (limit <= 1) {
      for await (const d of sub) await handle(d);
      return;
    }
    const lanes = new KeyedLanes(limit);
    for await (const d of sub) {
      holdDelivery(d);
      void lanes.run(opts.orderBy?.(d.event) ?? "", () => handle(d));
      // The next event is taken only when a handler is free: no more than `limit` held at once.
      await lanes.room();
    }
  })().catch((err: unknown) => opts.onError?.(err, undefined));
  return sub;
}
