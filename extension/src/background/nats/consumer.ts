import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg, type NatsConnection } from "nats.ws";
import { extensionActionSubject, STREAM_NAME } from "@crumbs/schemas/nats-names";
import { completeActionEvent, decodeAction } from "./action-event.ts";
import { logActivity } from "../../shared/state/activity.ts";
import { FailureStreak } from "../failure-streak.ts";
import { accept } from "../../shared/state/inbox.ts";

// The action subscription: a durable JetStream consumer named after the owner and the extension on
// `crumbs.<owner>.created.browser.action.v1`, filtered here by the `extension:<id>` tag. An action
// is stored (with its request_id) before the ack, so a redelivery after a crash is recognised and
// an action written while NATS or the browser was down is delivered when both are back.

export interface ActionLoopOptions {
  owner: string;
  extensionId: string;
  /** The durable's name (the one the NATS credentials allow). */
  consumer: string;
  /** Called after an action was stored, to start the runner. */
  onAccepted(): void;
  /** The API's GET of a breadcrumb, to complete an action that came as a reference event. */
  getBreadcrumb(id: string): Promise<unknown>;
}

/**
 * Acks follow the write to storage within milliseconds, so a short ack wait is safe; it is how
 * soon an action pulled by a worker that was then stopped goes to the next one.
 */
const ACK_WAIT = nanos(5_000);

async function ensureConsumer(nc: NatsConnection, name: string, filter: string): Promise<void> {
  // No account-info probe ($JS.API.INFO): per-owner credentials allow only this consumer's calls.
  const jsm = await nc.jetstreamManager({ checkAPI: false });
  const existing = await jsm.consumers.info(STREAM_NAME, name).catch(() => undefined);
  if (existing) {
    if (existing.config.filter_subject !== filter || existing.config.ack_wait !== ACK_WAIT) {
      await jsm.consumers.update(STREAM_NAME, name, { filter_subject: filter, ack_wait: ACK_WAIT });
    }
    return;
  }
  // New consumers start at new actions: a first install must not replay old actions of this owner.
  await jsm.consumers.add(STREAM_NAME, {
    durable_name: name,
    filter_subject: filter,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
    ack_wait: ACK_WAIT,
    max_deliver: 20,
  });
}

export function startActionLoop(nc: NatsConnection, opts: ActionLoopOptions): { stop(): Promise<void> } {
  let stopped = false;
  let messages: ConsumerMessages | undefined;
  const name = opts.consumer;

  const handle = async (msg: JsMsg) => {
    let payload: unknown;
    try {
      payload = msg.json();
    } catch {
      msg.term();
      return;
    }
    // The API being away throws here: the loop naks and JetStream delivers it again.
    payload = await completeActionEvent(payload, opts.getBreadcrumb);
    const decoded = decodeAction(payload, opts.extensionId, opts.owner);
    if (decoded.kind === "skip" && decoded.reason.startsWith("owned by")) void logActivity("policy", `ignored an action: ${decoded.reason}`, false);
    if (decoded.kind === "entry") {
      const fresh = await accept(decoded.entry);
      if (fresh) void logActivity("action", `received ${decoded.entry.title}`);
    }
    // A lost ack is harmless: the action is stored, and its redelivery is recognised by its request_id.
    await msg.ackAck().catch(() => {});
    if (decoded.kind === "entry") opts.onAccepted();
  };

  const subscription = new FailureStreak("the action subscription", (text, ok) => void logActivity("connection", text, ok));
  const receiving = new FailureStreak("receiving an action", (text, ok) => void logActivity("error", text, ok));
  const loop = (async () => {
    while (!stopped && !nc.isClosed()) {
      try {
        await ensureConsumer(nc, name, extensionActionSubject(opts.owner));
        const consumer = await nc.jetstream().consumers.get(STREAM_NAME, name);
        messages = await consumer.consume({ max_messages: 16 });
        subscription.succeeded();
        for await (const m of messages) {
          try {
            await handle(m);
            receiving.succeeded();
          } catch (err) {
            // Storage (or the API, for a reference event) failed: leave it unacked, JetStream delivers it again.
            m.nak(1_000);
            receiving.failed(err);
          }
        }
      } catch (err) {
        // A failure of a connection being closed on purpose (stop, a credentials renewal) is no news.
        if (!stopped && !nc.isClosed()) subscription.failed(err);
      }
      if (!stopped) await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * 2 ** Math.min(subscription.count, 5))));
    }
  })();

  return {
    async stop() {
      stopped = true;
      messages?.stop();
      await loop; // never rejects: it catches and reports its own failures
    },
  };
}
