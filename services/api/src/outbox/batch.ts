import { prepareMessage } from "./prepare.ts";

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
