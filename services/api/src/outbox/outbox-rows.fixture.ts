import type { OutboxRow } from "./batch.ts";

/** An outbox row of `owner` as the relay reads it; the payload is an event object unless given. */
export const outboxRow = (seq: number, owner: string, payload: unknown = { seq, owner, breadcrumb: { context: {} } }): OutboxRow => ({
  waited_ms: 0,
  seq: String(seq),
  subject: `crumbs.${owner}.updated.note.v1`,
  msg_id: `id${seq}:1:updated`,
  payload: JSON.stringify(payload),
});

/** Not an event object and too big: neither it nor a reference event can ever be sent. */
export const UNSENDABLE = "y".repeat(3_000);
