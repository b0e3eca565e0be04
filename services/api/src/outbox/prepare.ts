import { parseSubject, referenceEventOf } from "@crumbs/schemas";
import { PublishError } from "../nats/publisher.ts";

/**
 * Room kept for the headers JetStream adds (Nats-Msg-Id, Nats-Expected-Last-Msg-Id,
 * Content-Type) and the HPUB line: the server's `max_payload` counts headers too.
 */
export const HEADER_ALLOWANCE_BYTES = 1_024;

export interface OutboxMessage {
  subject: string;
  msg_id: string;
  /** The event as Postgres renders the jsonb column: sent as it is, parsed only to build a reference event. */
  payload: string;
}

export type Prepared =
  | { kind: "full" | "reference"; owner: string; data: Uint8Array }
  | { kind: "park"; owner: string; reason: string };


/**
 * Decides what the relay sends for one row, without IO: the event itself when it
 * fits `maxPayload`, its reference event (breadcrumb left out) when only that
 * fits, and "park" when nothing can ever be published for it.
 */
export function prepareMessage(row: OutboxMessage, maxPayload: number): Prepared {
  const parsed = parseSubject(row.subject);
  const owner = parsed?.owner ?? ownerToken(row.subject);
  if (!parsed) return { kind: "park", owner, reason: `invalid subject ${JSON.stringify(row.subject.slice(0, 300))}` };
  const limit = maxPayload - HEADER_ALLOWANCE_BYTES - row.msg_id.length * 2;
  // The stored text goes out unparsed: parsing and serialising a 3 KB event again was the relay
  // thread's largest cost in a profile of the write-path bench (and most of its garbage).
  const full = Buffer.from(row.payload);
  if (full.length <= limit) return { kind: "full", owner, data: full };
  const event = parseJson(row.payload);
  if (!isObject(event)) return { kind: "park", owner, reason: `event of ${full.length} bytes exceeds max_payload ${maxPayload}` };
  const ref = Buffer.from(JSON.stringify(referenceEventOf(event)));
  if (ref.length <= limit) return { kind: "reference", owner, data: ref };
  return {
    kind: "park",
    owner,
    reason: `event of ${full.length} bytes and its reference event of ${ref.length} bytes exceed max_payload ${maxPayload}`,
  };
}

/** The owner token of a subject that failed to parse, so the row still parks under someone. */
function ownerToken(subject: string): string {
  return subject.split(".")[1]?.slice(0, 64) || "(unknown)";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Publish errors that retrying cannot fix. Everything else (timeouts, no
 * responders while the stream is re-created, a wrong expected last id after
 * an earlier rejection) is transient and retried with backoff.
 */
export function isPermanentPublishError(err: unknown): boolean {
  // 10054: message size exceeds the stream's maximum.
  if (err instanceof PublishError) return err.code === "REFUSED" && err.errCode === 10054;
  // What nats.js throws before sending (NatsError codes).
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === "BAD_SUBJECT" || code === "MAX_PAYLOAD_EXCEEDED" || code === "BAD_PAYLOAD";
}
