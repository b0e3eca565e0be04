import type { ConsumerMessages, JsMsg, Msg, NatsConnection } from "nats";
import type { MessageSource, RawMessage } from "./event-subscription.ts";
import { asPermissionError } from "./nats-permission.ts";

// Where a subscription's messages come from, as the iteration loop sees them: a JetStream pull
// consumer (acks, and on stop a durable hands back what it was sent ahead), or a core NATS
// subscription to replays published live (nothing to ack, nothing to hand back).

export function jetStreamSource(nc: NatsConnection, messages: ConsumerMessages, durable: boolean): MessageSource {
  const it = messages[Symbol.asyncIterator]();
  // Events received after stop() began: handed back with the rest, never to the loop.
  const held: JsMsg[] = [];
  let stopping: Promise<void> | undefined;
  return {
    durable,
    messages: {
      next: async () => {
        const r = await it.next().catch((err: unknown) => {
          throw asPermissionError(err);
        });
        if (r.done) return r;
        const m = r.value;
        // A read that was waiting when the subscription stopped: the event goes back, not to the loop.
        if (stopping) {
          if (durable) held.push(m);
          return { done: true, value: undefined };
        }
        const raw: RawMessage = {
          subject: m.subject,
          seq: m.info.streamSequence,
          deliveryCount: m.info.redeliveryCount,
          redelivered: m.info.redelivered,
          json: () => m.json(),
          ack: async () => void (await m.ackAck()),
          skip: () => m.ack(),
          nak: (ms) => m.nak(ms),
          term: (reason) => m.term(reason),
          working: () => m.working(),
        };
        return { done: false, value: raw };
      },
    },
    stop() {
      stopping ??= durable ? handBack(nc, messages, it, held) : Promise.resolve(messages.stop());
      return stopping;
    },
  };
}

/** The parts of nats.js's pull consumer iterator (PullConsumerMessagesImpl) that a clean stop needs; not in its types. */
interface PullIteratorInternals {
  refilling?: boolean;
  clearTimers?(): void;
  sub?: { drain(): Promise<void> };
}

const HAND_BACK_TIMEOUT_MS = 5_000;

/**
 * Ends a durable consumer's iterator without keeping what it was sent ahead, so another process
 * sharing the durable (or this one restarted) gets those events at once, not after the ack wait.
 * `messages.stop()` would unsubscribe at once: events already on their way are dropped on arrival
 * and stay "ack pending" for the whole ack wait. Instead: no more pulls are asked for, the inbox is
 * drained (unsubscribe; what was already sent still arrives and nats.js then ends the iterator),
 * every event not handed to the loop is collected, and only then nak'ed, without delay.
 *
 * The order matters. nats.js queues a pull request in the iterator and sends it when the iterator
 * reaches it, so reading the iterator to its end after the unsubscribe can still send pull requests
 * whose reply inbox nobody listens on. nats-server 2.9.10 serves a pull request the moment it
 * arrives if an event is due, without checking that the inbox has a subscriber (a queued request
 * is checked): an event nak'ed while such a request is on its way went to it and was lost until
 * the ack wait (1-3 of 7 events in every run, measured). So the naks go out after everything was
 * read and a flush, when those late requests are already queued at the server and skipped there:
 * 7 of 7 handed back, the next subscriber has all of them in 32-49 ms (4 runs, ack wait 300 s).
 */
async function handBack(nc: NatsConnection, messages: ConsumerMessages, it: AsyncIterator<JsMsg>, held: JsMsg[]): Promise<void> {
  const impl = messages as unknown as PullIteratorInternals;
  if (typeof impl.sub?.drain !== "function") {
    messages.stop();
  } else {
    impl.refilling = false;
    impl.clearTimers?.();
    const drained = impl.sub.drain().catch(() => messages.stop());
    const timer = setTimeout(() => messages.stop(), HAND_BACK_TIMEOUT_MS);
    try {
      await drained;
    } finally {
      clearTimeout(timer);
    }
  }
  for (;;) {
    const r = await it.next().catch(() => ({ done: true as const, value: undefined }));
    if (r.done) break;
    held.push(r.value);
  }
  await nc.flush().catch(() => {});
  for (const m of held.splice(0)) m.nak();
}

export async function coreSource(nc: NatsConnection, subject: string): Promise<MessageSource> {
  const sub = nc.subscribe(subject);
  const it = sub[Symbol.asyncIterator]();
  // The server answers a subscription it refuses with an -ERR before the flush's PONG, and nats.js
  // then closes the subscription: refuse here, in subscribe(), rather than in the loop.
  await nc.flush();
  if (sub.isClosed() && !nc.isClosed()) {
    const refused = await it.next().then(
      () => undefined,
      (err: unknown) => err,
    );
    throw asPermissionError(refused ?? { code: "PERMISSIONS_VIOLATION", message: "Permissions Violation" }, { operation: "subscribe", subject });
  }
  let n = 0;
  let stopping: Promise<void> | undefined;
  return {
    durable: false,
    messages: {
      next: async () => {
        const r = await it.next().catch((err: unknown) => {
          throw asPermissionError(err, { operation: "subscribe", subject });
        });
        if (r.done) return r;
        const m: Msg = r.value;
        const raw: RawMessage = {
          subject: m.subject,
          seq: ++n,
          deliveryCount: 1,
          redelivered: false,
          json: () => m.json(),
          ack: async () => {},
          skip: () => {},
          nak: () => {},
          term: () => {},
          working: () => {},
        };
        return { done: false, value: raw };
      },
    },
    stop() {
      stopping ??= sub.drain().catch(() => sub.unsubscribe());
      return stopping;
    },
  };
}
