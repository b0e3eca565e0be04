import { type JetStreamClient, type NatsConnection, type PubAck, type Status } from "nats";
import { eventTypeShort, msgIdFor, referenceEventOf } from "@crumbs/schemas";
import type { BreadcrumbEvent } from "./known.ts";
import { CoreFrames } from "./core-frames.ts";
import { asPermissionError, NatsPermissionError } from "./nats-permission.ts";

/** The event fields a replayed event's subject and msg id are made of. */
export type ReplayedEventFields = Pick<BreadcrumbEvent, "id" | "owner" | "schema_name" | "type" | "version">;

/** Subject a replayed event is published on: `<prefix>.<owner>.<type>.<schema_name>`. */
export function replaySubject(prefix: string, e: ReplayedEventFields): string {
  return `${prefix}.${e.owner}.${eventTypeShort(e.type)}.${e.schema_name}`;
}

/** Same header as the API's relay (`<id>:<version>:<type>`), so a republish into a stream is deduplicated. */
export const replayMsgId = (e: ReplayedEventFields) => msgIdFor(e.id, e.version, e.type);

/** A NATS subject prefix: dot-separated tokens, no wildcards or whitespace. */
export const isReplayPrefix = (prefix: string) => /^[^\s.*>]+(\.[^\s.*>]+)*$/.test(prefix);

/** What a replay publish did: each event went into a JetStream stream (stored once) or out as a core publish. */
export interface ReplayPublishCounts {
  /** Accepted by a stream, duplicates included. */
  jetstream: number;
  /** Of those, already in the stream (same msg id within its duplicate window): stored once. */
  duplicates: number;
  /** Published without a stream: only live subscribers saw them. */
  core: number;
}

export interface ReplayPublisher {
  /** The event is published whole, as JSON (or as its reference event when it does not fit). */
  publish(event: BreadcrumbEvent): Promise<void>;
  /**
   * The same with the event's JSON given as bytes (as the API sent them: nothing serialised
   * again). Returns a promise only when the caller must wait (the window of unacknowledged
   * JetStream publishes is full, or the stream is not looked up yet). A core publish may wait in
   * the publisher's buffer until `flush` or `done`.
   */
  publishJson(event: ReplayedEventFields, json: Uint8Array): Promise<void> | undefined;
  /** Sends what waits in the publisher's buffer and waits for the server to have seen it (a PING's PONG). */
  flush(): Promise<void>;
  /**
   * Waits until every publish was accepted (or refused) and the server has seen them all; the
   * connection stays open. Rejects with the first failure: a NatsPermissionError for a refusal.
   */
  done(): Promise<ReplayPublishCounts>;
}

/**
 * Publishes awaiting their acknowledgement at once: enough to keep a replay streaming, bounded.
 * 256 left the publisher waiting on acks between pages of 1,000 events.
 */
const WINDOW = 1_024;

/**
 * Publishes replayed events on `<prefix>.<owner>.<type>.<schema_name>`, in the order given. When a
 * JetStream stream covers the subject (an owner's `REPLAY` stream covers `replay.<owner>.>`) the
 * event is stored there with the contract's Nats-Msg-Id, so replaying twice within the stream's
 * duplicate window stores it once, and durable consumers get it even if they start later;
 * otherwise it is a core publish that only live subscribers see (each publish, duplicates too).
 * Owner credentials may publish on `<prefix>.<owner>.>` with any prefix but `crumbs`.
 */
export async function openReplayPublisher(nc: NatsConnection, prefix: string): Promise<ReplayPublisher> {
  if (!isReplayPrefix(prefix)) throw new TypeError(`invalid replay prefix "${prefix}": use dot-separated tokens without * > or spaces`);
  // A refused core publish is dropped by the server, which says so only on the connection
  // (-ERR 'Permissions Violation for Publish to ...'): watch for it, so the refusal is named
  // instead of nothing at all. A refused subscription there (the JetStream API's reply inbox) only
  // means no stream is found and the events go out as core publishes.
  let refused: NatsPermissionError | undefined;
  const status = nc.status();
  void (async () => {
    for await (const st of status as AsyncIterable<Status & { permissionContext?: { operation: string; subject: string } }>) {
      const ctx = st.permissionContext;
      if (st.type === "error" && st.data === "PERMISSIONS_VIOLATION" && ctx?.operation === "publish") {
        refused ??= new NatsPermissionError("publish", ctx.subject, `Permissions Violation for Publish to "${ctx.subject}"`);
      }
    }
  })().catch(() => {});
  const jsm = await nc.jetstreamManager({ timeout: 2_000 }).catch(() => undefined);
  const js: JetStreamClient | undefined = jsm ? nc.jetstream() : undefined;
  // The stream of each subject, looked up once; a replay has a few subjects and many events.
  const streamOf = new Map<string, string | undefined>();
  const findStream = async (subject: string) => {
    const found = jsm ? await jsm.streams.find(subject).catch(() => undefined) : undefined;
    streamOf.set(subject, found);
  };
  // The last event's subject, kept while the next events share its fields (a replay's runs of one
  // owner, type and schema): building each event's subject and hashing it into streamOf cost more
  // than comparing its three fields.
  let last: ReplayedEventFields | undefined;
  let lastSubject = "";
  const subjectOf = (event: ReplayedEventFields) => {
    if (last?.owner !== event.owner || last.type !== event.type || last.schema_name !== event.schema_name) {
      lastSubject = replaySubject(prefix, event);
      last = event;
    }
    return lastSubject;
  };
  const core = new CoreFrames(nc);
  const inFlight = new Set<Promise<PubAck>>();
  const counts: ReplayPublishCounts = { jetstream: 0, duplicates: 0, core: 0 };
  let failure: unknown;

  const send = (event: ReplayedEventFields, json: Uint8Array): Promise<void> | undefined => {
    if (refused) throw refused;
    if (failure) throw failure;
    const subject = subjectOf(event);
    if (!streamOf.has(subject)) return findStream(subject).then(() => send(event, json));
    const data = fitted(event, json, nc.info?.max_payload);
    const msgID = replayMsgId(event);
    if (js && streamOf.get(subject)) {
      // Core frames still held go first: the connection keeps the order it was given publishes in.
      core.handOver();
      // Publishes from one connection keep their order, so a window of unacked ones is safe.
      const p = js.publish(subject, data, { msgID });
      inFlight.add(p);
      p.then(
        (ack) => {
          inFlight.delete(p);
          if (ack.duplicate) counts.duplicates++;
          counts.jetstream++;
        },
        (err: unknown) => {
          inFlight.delete(p);
          const e = asPermissionError(err, { operation: "publish", subject });
          failure ??= e instanceof NatsPermissionError ? e : new Error(`JetStream publish to ${subject} failed: ${(err as Error).message}`);
        },
      );
      // Acks come in publish order: waiting for the oldest frees the window (a race over all of
      // them cost a reaction per publish in flight, for every publish).
      if (inFlight.size >= WINDOW) return inFlight.values().next().value!.then(() => undefined, () => undefined);
    } else {
      core.publish(subject, msgID, data);
      counts.core++;
    }
    return undefined;
  };

  return {
    async publish(event) {
      await send(event, new TextEncoder().encode(JSON.stringify(event)));
      core.handOver();
    },
    publishJson: send,
    flush() {
      core.handOver();
      return nc.flush();
    },
    async done() {
      try {
        core.handOver();
        await Promise.allSettled([...inFlight]);
        // The server answers a refused core publish before the flush's PONG.
        await nc.flush().catch(() => {});
      } finally {
        (status as { stop?: () => void }).stop?.();
      }
      // A refusal explains a failed publish (which then timed out) better than the timeout does.
      if (refused) throw refused;
      if (failure) throw failure;
      return { ...counts };
    },
  };
}

/** Room for the headers and protocol line, which the server's max_payload counts too. */
const HEADER_ALLOWANCE_BYTES = 1_024;

/**
 * The event as the relay would send it: its JSON when it fits the server's max_payload, otherwise
 * its reference event (breadcrumb left out), which the SDK completes from the API.
 */
function fitted(event: ReplayedEventFields, json: Uint8Array, maxPayload = 1024 * 1024): Uint8Array {
  if (json.length <= maxPayload - HEADER_ALLOWANCE_BYTES) return json;
  const whole = JSON.parse(new TextDecoder().decode(json)) as BreadcrumbEvent;
  return new TextEncoder().encode(JSON.stringify(referenceEventOf(whole)));
}
