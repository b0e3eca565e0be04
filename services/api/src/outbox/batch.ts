import { prepareMessage } from "./prepare.ts";
import type { Outcome } from "./relay-state.ts";

/** One unpublished outbox row, as the relay reads it. */
export interface OutboxRow {
  seq: string;
  subject: string;
  msg_id: string;
  /** The event's JSON text (the jsonb column cast to text). */
  payload: string;
  /** How long the row had waited when the relay read it, in ms, on Postgres's clock (from its write's start). */
  waited_ms: number;
  /** Handed over in memory by its write (then waited_ms counts from the commit), not read from the outbox. */
  handed?: boolean;
}

export interface Outgoing {
  row: OutboxRow;
  owner: string;
  data: Uint8Array;
}

export interface ToPark {
  row: OutboxRow;
  owner: string;
  reason: string;
}

/**
 * Splits a batch (in seq order) into what goes out (the event, or its reference
 * event when only that fits max_payload) and what parks: rows nothing can be
 * published for, and rows of an owner with an earlier parked row (held, so that
 * the owner's order holds once they are retried). `heldFrom` is, per owner, the
 * oldest seq already parked; it is not modified.
 */
export function splitBatch(
  rows: readonly OutboxRow[],
  heldFrom: ReadonlyMap<string, number>,
  maxPayload: number,
): { send: Outgoing[]; parked: ToPark[] } {
  const held = new Map(heldFrom);
  const send: Outgoing[] = [];
  const parked: ToPark[] = [];
  for (const row of rows) {
    const p = prepareMessage(row, maxPayload);
    const from = held.get(p.owner);
    if (from !== undefined && from < Number(row.seq)) {
      parked.push({ row, owner: p.owner, reason: `held behind parked seq ${from} of owner ${p.owner}` });
    } else if (p.kind === "park") {
      parked.push({ row, owner: p.owner, reason: p.reason });
      held.set(p.owner, Number(row.seq));
    } else {
      send.push({ row, owner: p.owner, data: p.data });
    }
  }
  return { send, parked };
}

/** What a batch sent: the acked rows are a prefix of `send`, followed by the first failure if any. */
export interface Sent {
  send: readonly Outgoing[];
  /** When each acked row was acked (performance.now()). */
  ackedAt: number[];
  failure?: unknown;
  /** When the read that returned `send[i]` came back. */
  readAt(i: number): number;
  /** The batch read as many rows as it may: more are likely waiting. */
  full: boolean;
  /** Rows parked before they were sent (splitBatch). */
  parked: number;
}

/**
 * What comes of a batch once its acks are in. The acked prefix is deleted. A refusal no retry can
 * fix (`permanent`) parks its row, and the batch ends "more": the rows after it were refused only
 * because it was missing, so the next batch sends them. Any other failure ends it "failed" (the
 * relay backs off). Otherwise "more" when the batch was full or parked rows, else "idle".
 */
export function settleBatch(sent: Sent, permanent: (err: unknown) => boolean): { acked: readonly Outgoing[]; park?: ToPark; outcome: Outcome } {
  const acked = sent.send.slice(0, sent.ackedAt.length);
  if (sent.failure === undefined) return { acked, outcome: sent.full || sent.parked > 0 ? "more" : "idle" };
  if (!permanent(sent.failure)) return { acked, outcome: "failed" };
  const failed = sent.send[acked.length]!;
  return { acked, park: { row: failed.row, owner: failed.owner, reason: `publish refused: ${String(sent.failure)}` }, outcome: "more" };
}

/** What a batch came to, once it committed. */
export interface BatchResult {
  outcome: Outcome;
  /** Each published event's delay from its write to its ack, in ms. */
  published: number[];
  /** How many of them were handed over in memory rather than read from the outbox. */
  fromMemory: number;
  parked: number;
}
