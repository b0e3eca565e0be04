import { createInbox, headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from "nats";
import { ownerFeedSubject } from "../nats-auth/owner-feed.ts";

/** Why a publish got no ack: the code says what happened, `errCode` is JetStream's own when it refused. */
export class PublishError extends Error {
  constructor(
    /**
     * TIMEOUT: no answer in time; NO_RESPONDERS: no stream listens on the subject (yet); REFUSED:
     * JetStream said no; CLOSED: the publisher was closed before an answer came.
     */
    readonly code: "TIMEOUT" | "NO_RESPONDERS" | "REFUSED" | "CLOSED",
    message: string,
    /** JetStream's `err_code` when it refused (10054: larger than the stream's max_msg_size, 10070: wrong last msg id). */
    readonly errCode?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export interface PublishOptions {
  /** `Nats-Msg-Id`: JetStream drops a second message with the same id within the stream's duplicate window. */
  msgId: string;
  /** `Nats-Expected-Last-Msg-Id`: refused unless the stream's last message has this id. */
  expectedLastMsgId?: string;
}

export interface PubAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

interface Waiting {
  resolve(ack: PubAck): void;
  reject(err: PublishError): void;
  deadline: number;
}

/**
 * JetStream publishes with acks, any number in flight, answered on one reply subscription.
 *
 * Why not `js.publish` from nats.js: it makes every publish a request of its own (a mux entry, a
 * deferred, a timer) and, on every successful ack, builds a `NatsError` for the cancel that follows
 * the resolve (request.js `resolver` -> `cancel`), a stack capture per event. Publishing 3 KB events
 * in pipelined batches of 12, that was 79-96 µs of CPU per event against 32-39 µs this way, and the
 * relay thread publishes every event the API commits. Here a publish is one `nc.publish` with a
 * reply subject `<inbox>.<n>`, one map entry, and one shared timer that expires the oldest entries.
 *
 * Order is nats.js's: one connection's publishes reach the server in the order sent, which is what
 * the relay's expected-last-msg-id chain relies on. The reply subscription survives reconnects
 * (nats.js resubscribes); a publish sent while disconnected times out like any unanswered one.
 */
export class JetStreamPublisher {
  private readonly prefix = createInbox();
  private readonly sub: Subscription;
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly nc: NatsConnection,
    private readonly timeoutMs = 3_000,
    /** Also send each event's unguarded copy for the owners' accounts (nats-auth/owner-feed.ts). */
    private readonly ownerFeed = false,
  ) {
    this.sub = nc.subscribe(`${this.prefix}.*`, { callback: (_err, msg) => this.answered(msg) });
  }

  publish(subject: string, data: Uint8Array, opts: PublishOptions): Promise<PubAck> {
    const h = natsHeaders();
    h.set("Content-Type", "application/json");
    h.set("Nats-Msg-Id", opts.msgId);
    if (opts.expectedLastMsgId !== undefined) h.set("Nats-Expected-Last-Msg-Id", opts.expectedLastMsgId);
    const token = String(this.next++);
    return new Promise<PubAck>((resolve, reject) => {
      // Throws at once for what no retry fixes (BAD_SUBJECT, MAX_PAYLOAD_EXCEEDED, a closed connection).
      this.nc.publish(subject, data, { headers: h, reply: `${this.prefix}.${token}` });
      if (this.ownerFeed) {
        // After the event on the same connection, so the owner's stream gets its events in the
        // relay's order; a republish after a failure is a duplicate its message id drops. No ack:
        // the main stream's is the relay's record (SECURITY.md, "NATS", on what this can miss).
        const copy = natsHeaders();
        copy.set("Content-Type", "application/json");
        copy.set("Nats-Msg-Id", opts.msgId);
        this.nc.publish(ownerFeedSubject(subject), data, { headers: copy });
      }
      this.waiting.set(token, { resolve, reject, deadline: Date.now() + this.timeoutMs });
      this.sweeper ??= setTimeout(() => this.sweep(), this.timeoutMs).unref();
    });
  }

  /** Rejects what is still waiting and stops listening. */
  close(): void {
    clearTimeout(this.sweeper);
    this.sweeper = undefined;
    this.sub.unsubscribe();
    this.fail(() => true, "CLOSED", "the publisher was closed before JetStream answered");
  }

  private answered(msg: Msg): void {
    const token = msg.subject.slice(this.prefix.length + 1);
    const w = this.waiting.get(token);
    if (!w) return; // expired already
    this.waiting.delete(token);
    if (msg.headers?.code === 503) {
      w.reject(new PublishError("NO_RESPONDERS", `no stream answered on ${msg.subject}`));
      return;
    }
    let body: { stream?: string; seq?: number; duplicate?: boolean; error?: { err_code?: number; description?: string } };
    try {
      body = msg.json();
    } catch {
      w.reject(new PublishError("REFUSED", "JetStream answered with something that is not JSON"));
      return;
    }
    if (body.error || typeof body.stream !== "string" || typeof body.seq !== "number") {
      const e = body.error ?? {};
      w.reject(new PublishError("REFUSED", `JetStream refused the publish: ${e.description ?? "no ack"}`, e.err_code));
      return;
    }
    w.resolve({ stream: body.stream, seq: body.seq, duplicate: body.duplicate === true });
  }

  /** Map order is publish order and every entry has the same timeout, so the expired ones are a prefix. */
  private sweep(): void {
    this.sweeper = undefined;
    const now = Date.now();
    this.fail((w) => w.deadline <= now, "TIMEOUT", `no ack within ${this.timeoutMs} ms`);
    const oldest = this.waiting.values().next();
    if (!oldest.done) this.sweeper = setTimeout(() => this.sweep(), Math.max(1, oldest.value.deadline - now)).unref();
  }

  private fail(expired: (w: Waiting) => boolean, code: PublishError["code"], message: string): void {
    for (const [token, w] of this.waiting) {
      if (!expired(w)) break;
      this.waiting.delete(token);
      w.reject(new PublishError(code, message));
    }
  }
}
