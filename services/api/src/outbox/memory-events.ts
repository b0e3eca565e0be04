import { parseSubject } from "@crumbs/schemas";
import type { CommittedEvent } from "../store/committed-event.ts";
import type { OutboxRow } from "./batch.ts";

/** Past this many queued events the relay has fallen behind: they are dropped, the outbox has them. */
const MAX_QUEUED = 2_000;

/** A queued event with its owner (undefined when its subject does not parse) and seq, read once at hand-over. */
interface Queued {
  e: CommittedEvent;
  owner: string | undefined;
  seq: number;
}

/**
 * The events this process committed, handed to its relay in memory so that a batch already holding
 * the relay lock can publish them without reading the outbox back.
 *
 * Order is the point. An event may go out from memory only right after its owner's previous one:
 * its `prev_seq` (returned by the write, store/owner-order.ts) must be the last seq of that owner
 * this relay sent. Anything else (an owner this relay has not seen yet, a write of another
 * replica in between, a commit whose answer arrived out of order, an owner held behind a parked
 * row) is left to the outbox, which has every committed event: the relay reads it instead.
 *
 * Pure bookkeeping, no IO; OutboxRelay keeps one and tells it what it sent, parked and read.
 */
export class MemoryEvents {
  private queue: Queued[] = [];
  /** Per owner, the last seq sent by this relay, in stream order. Absent: unknown, read the outbox. */
  private readonly last = new Map<string, number>();

  offer(event: CommittedEvent): void {
    if (this.queue.length >= MAX_QUEUED) this.queue = [];
    this.queue.push({ e: event, owner: parseSubject(event.subject)?.owner, seq: Number(event.seq) });
  }

  queued(): number {
    return this.queue.length;
  }

  /** A row of `owner` with this seq went out (from the outbox or from memory), after every earlier one of the owner. */
  sent(owner: string, seq: number): void {
    const last = this.last.get(owner);
    if (last === undefined || seq > last) this.last.set(owner, seq);
  }

  /** A row of `owner` was parked: its later events must come from the outbox, behind it. */
  forget(owner: string): void {
    this.last.delete(owner);
  }

  /** After a failed batch nothing sent is known to be in the stream: start again from the outbox. */
  reset(): void {
    this.queue = [];
    this.last.clear();
  }

  /**
   * The first `n` queued events arrived before a read of the outbox began, so their rows were in
   * it (committed before they were handed over) or were published already: drop them.
   */
  dropFirst(n: number): void {
    this.queue.splice(0, n);
  }

  /**
   * Takes the queued events that can go out now, as outbox rows in seq order: for each owner, those
   * that follow the last one sent of the owner with no gap (earlier ones taken here counting).
   * The others stay queued (`waiting`): an event whose previous one was not handed over yet (two
   * commits of one owner can be answered out of order, and then it is on its way; or another
   * replica wrote it, and only the outbox has it), an owner this relay has not sent yet, an owner's
   * first write, an owner held behind a parked row (`held`). Events already sent are dropped.
   */
  take(held: (owner: string) => boolean, nowMs: number): { rows: OutboxRow[]; waiting: number } {
    const pending = this.queue
      .filter((p) => p.owner === undefined || p.seq > (this.last.get(p.owner) ?? -1))
      .sort((a, b) => a.seq - b.seq);
    const rows: OutboxRow[] = [];
    const stay: Queued[] = [];
    const taken = new Map<string, number>();
    const blocked = new Set<string>();
    for (const p of pending) {
      const { e, owner, seq } = p;
      const last = owner === undefined ? undefined : (taken.get(owner) ?? this.last.get(owner));
      if (owner === undefined || blocked.has(owner) || held(owner) || e.prev_seq === null || last === undefined || Number(e.prev_seq) !== last) {
        if (owner !== undefined) blocked.add(owner);
        stay.push(p);
        continue;
      }
      taken.set(owner, seq);
      rows.push({ seq: e.seq, subject: e.subject, msg_id: e.msg_id, payload: e.payload, waited_ms: Math.max(0, nowMs - e.committedAt), handed: true });
    }
    this.queue = stay;
    return { rows, waiting: stay.length };
  }
}
