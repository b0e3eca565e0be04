// The store produces it (the write statement returns it); the outbox relay consumes it. It lives with its
// producer so that the store depends on nothing of the outbox.

/**
 * An outbox row as the write that committed it returned it, with its event's text (its history row's
 * event_json, the bytes the relay publishes), handed to the relay in memory
 * (the relay's offer, outbox/relay.ts), with the owner's previous seq, which tells the relay whether it may
 * publish the event without reading the outbox (outbox/relay.ts).
 */
export interface CommittedEvent {
  seq: string;
  subject: string;
  msg_id: string;
  payload: string;
  /** The owner's seq before this one (owner_heads), null on the owner's first write. */
  prev_seq: string | null;
  /** Date.now() when the commit returned. */
  committedAt: number;
}
