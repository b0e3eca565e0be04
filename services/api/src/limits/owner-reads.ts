/**
 * Heavy reads (pages of events, lists, history, SSE backfill) per owner: how many run at once
 * and how many bytes of pages they hold. Every key of an owner shares the one share, so an admin
 * key minting more keys gains nothing, and a reader over its share waits behind its own earlier
 * reads, in order, never behind another owner's. Pure state; owner-read-gate.ts turns it into
 * promises and the wait bound.
 */
export interface OwnerReadLimits {
  /** Heavy reads of one owner running at once (CRUMBS_OWNER_READS). */
  reads: number;
  /** Bytes of pages one owner's running reads may hold (CRUMBS_OWNER_READ_BYTES). */
  bytes: number;
}

export interface ReadTicket {
  readonly owner: string;
  /** What the read reserved: its page budget, at most the owner's whole byte share. */
  readonly bytes: number;
}

interface OwnerState {
  reads: number;
  bytes: number;
  waiting: ReadTicket[];
}

export type ReadRequest = { kind: "granted" | "queued"; ticket: ReadTicket } | { kind: "refused"; waiting: number };

export class OwnerReads {
  private readonly owners = new Map<string, OwnerState>();

  constructor(readonly limits: OwnerReadLimits) {}

  /** Starts the read now, queues it behind the owner's others, or refuses when `maxQueue` already wait. */
  request(owner: string, bytes: number, maxQueue: number): ReadRequest {
    const s = this.owners.get(owner) ?? { reads: 0, bytes: 0, waiting: [] };
    this.owners.set(owner, s);
    const ticket: ReadTicket = { owner, bytes: Math.min(Math.max(0, bytes), this.limits.bytes) };
    if (s.waiting.length === 0 && this.fits(s, ticket)) {
      this.start(s, ticket);
      return { kind: "granted", ticket };
    }
    if (s.waiting.length >= maxQueue) {
      this.forget(owner, s);
      return { kind: "refused", waiting: s.waiting.length };
    }
    s.waiting.push(ticket);
    return { kind: "queued", ticket };
  }

  /** Ends a running read; returns the owner's queued reads that start now, in the order they asked. */
  release(ticket: ReadTicket): ReadTicket[] {
    const s = this.owners.get(ticket.owner);
    if (!s) return [];
    s.reads -= 1;
    s.bytes -= ticket.bytes;
    const started: ReadTicket[] = [];
    while (s.waiting.length > 0 && this.fits(s, s.waiting[0] as ReadTicket)) {
      const next = s.waiting.shift() as ReadTicket;
      this.start(s, next);
      started.push(next);
    }
    this.forget(ticket.owner, s);
    return started;
  }

  /** Takes a queued read out (its request gave up); false when it is not waiting any more. */
  withdraw(ticket: ReadTicket): boolean {
    const s = this.owners.get(ticket.owner);
    const i = s ? s.waiting.indexOf(ticket) : -1;
    if (!s || i < 0) return false;
    s.waiting.splice(i, 1);
    this.forget(ticket.owner, s);
    return true;
  }

  usage(owner: string): { reads: number; bytes: number; waiting: number } {
    const s = this.owners.get(owner);
    return { reads: s?.reads ?? 0, bytes: s?.bytes ?? 0, waiting: s?.waiting.length ?? 0 };
  }

  private fits(s: OwnerState, t: ReadTicket): boolean {
    return s.reads < this.limits.reads && s.bytes + t.bytes <= this.limits.bytes;
  }

  private start(s: OwnerState, t: ReadTicket): void {
    s.reads += 1;
    s.bytes += t.bytes;
  }

  /** An idle owner takes no memory, whatever the number of owners that ever read. */
  private forget(owner: string, s: OwnerState): void {
    if (s.reads === 0 && s.waiting.length === 0) this.owners.delete(owner);
  }
}
