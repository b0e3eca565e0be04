import { headers as natsHeaders, type JetStreamClient, type NatsConnection, type PubAck } from "nats";
import { referenceEventOf } from "@crumbs/schemas";
import { CliError } from "./errors.ts";
import type { BreadcrumbEvent } from "@crumbs/agent-sdk";
import { replayMsgId, replaySubject } from "./event-line.ts";
import { isPermissionError, publishRefused } from "./nats-failure.ts";

export interface ReplayPublisher {
  /** The event is published whole, as JSON (or as its reference event when it does not fit). */
  publish(event: BreadcrumbEvent): Promise<void>;
  /** Waits for every publish to be accepted, then disconnects. */
  close(): Promise<{ jetstream: number; core: number; duplicates: number }>;
}

const WINDOW = 256;

/**
 * Publishes replayed events on `<prefix>.<owner>.<type>.<schema_name>`. When a JetStream stream
 * covers the subject the event is stored there (with the contract's Nats-Msg-Id, so replaying into
 * the stream twice within its duplicate window stores it once) and durable consumers get it even
 * if they start later; otherwise it is a core publish that only live subscribers see.
 */
export async function openReplayPublisher(nc: NatsConnection, prefix: string): Promise<ReplayPublisher> {
  // A publish the credentials may not make is dropped by the server, which says so only on the
  // connection (-ERR 'Permissions Violation for Publish to ...'): watch for it, so the command
  // names that cause instead of a timeout or nothing at all.
  let refused: CliError | undefined;
  void (async () => {
    for await (const st of nc.status()) {
      const ctx = (st as { permissionContext?: { operation: string; subject: string } }).permissionContext;
      // A refused subscription (the JetStream API's reply inbox) only means no stream is found and
      // the events go out as core publishes; a refused publish loses the event.
      if (st.type === "error" && st.data === "PERMISSIONS_VIOLATION" && ctx?.operation === "publish") refused ??= publishRefused(ctx.subject, prefix);
    }
  })().catch(() => {});
  const jsm = await nc.jetstreamManager({ timeout: 2_000 }).catch(() => undefined);
  const js: JetStreamClient | undefined = jsm ? nc.jetstream() : undefined;
  const streamOf = new Map<string, Promise<string | undefined>>();
  const findStream = (subject: string) => {
    let found = streamOf.get(subject);
    if (!found) {
      found = jsm ? jsm.streams.find(subject).catch(() => undefined) : Promise.resolve(undefined);
      streamOf.set(subject, found);
    }
    return found;
  };
  const inFlight = new Set<Promise<PubAck>>();
  const counts = { jetstream: 0, core: 0, duplicates: 0 };
  let failure: unknown;

  return {
    async publish(event) {
      if (refused) throw refused;
      if (failure) throw failure;
      const subject = replaySubject(prefix, event);
      const data = fitted(event, nc.info?.max_payload);
      const msgID = replayMsgId(event);
      if (js && (await findStream(subject))) {
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
            failure ??= isPermissionError(err)
              ? publishRefused(subject, prefix)
              : new CliError("publish_failed", `JetStream publish to ${subject} failed: ${(err as Error).message}`);
          },
        );
        if (inFlight.size >= WINDOW) await Promise.race(inFlight).catch(() => {});
      } else {
        const h = natsHeaders();
        h.set("Nats-Msg-Id", msgID);
        nc.publish(subject, data, { headers: h });
        counts.core++;
      }
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      await nc.flush().catch(() => {});
      await nc.drain().catch(() => {});
      // A refusal explains a failed publish (which then timed out) better than the timeout does.
      if (refused) throw refused;
      if (failure) throw failure;
      return counts;
    },
  };
}

/** Room for the headers and protocol line, which the server's max_payload counts too. */
const HEADER_ALLOWANCE_BYTES = 1_024;

/**
 * The event as the relay would send it: itself when it fits the server's
 * max_payload, otherwise its reference event (breadcrumb left out), which the
 * SDK completes from the API.
 */
function fitted(event: BreadcrumbEvent, maxPayload = 1024 * 1024): Uint8Array {
  const enc = new TextEncoder();
  const full = enc.encode(JSON.stringify(event));
  if (full.length <= maxPayload - HEADER_ALLOWANCE_BYTES) return full;
  return enc.encode(JSON.stringify(referenceEventOf(event)));
}
