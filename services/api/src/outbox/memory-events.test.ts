import { describe, expect, it } from "vitest";
import type { CommittedEvent } from "../store/committed-event.ts";
import { MemoryEvents } from "./memory-events.ts";

const event = (owner: string, seq: number, prev: number | null, committedAt = 1_000): CommittedEvent => ({
  seq: String(seq),
  subject: `crumbs.${owner}.updated.note.v1`,
  msg_id: `${owner}-${seq}`,
  payload: JSON.stringify({ seq, owner }),
  prev_seq: prev === null ? null : String(prev),
  committedAt,
});
const free = () => false;
const taken = (m: MemoryEvents, held: (owner: string) => boolean = free) => {
  const { rows, waiting } = m.take(held, 0);
  return { seqs: rows.map((r) => Number(r.seq)), waiting };
};

describe("events handed over in memory", () => {
  it("an event right after its owner's last sent one goes out from memory, with its wait since the commit", () => {
    const m = new MemoryEvents();
    m.sent("alice", 10);
    m.offer(event("alice", 12, 10, 1_000));
    const { rows, waiting } = m.take(free, 1_004);
    expect(rows.map((r) => [r.seq, r.waited_ms, r.handed])).toEqual([["12", 4, true]]);
    expect(waiting).toBe(0);
    expect(m.queued()).toBe(0);
  });

  it("a run of one owner's events goes out in seq order, even when the commits were answered out of order", () => {
    const m = new MemoryEvents();
    m.sent("alice", 10);
    m.sent("bob", 11);
    m.offer(event("alice", 14, 12));
    m.offer(event("alice", 12, 10));
    m.offer(event("bob", 13, 11));
    expect(taken(m)).toEqual({ seqs: [12, 13, 14], waiting: 0 });
  });

  it("an event whose previous one has not come waits, and goes once it has", () => {
    const m = new MemoryEvents();
    m.sent("alice", 10);
    m.sent("bob", 20);
    m.offer(event("alice", 14, 12)); // 12 is still on its way
    m.offer(event("bob", 21, 20));
    expect(taken(m)).toEqual({ seqs: [21], waiting: 1 });
    m.sent("bob", 21);
    m.offer(event("alice", 12, 10));
    expect(taken(m)).toEqual({ seqs: [12, 14], waiting: 0 });
  });

  it("an event written in between by another replica never comes: the caller reads the outbox and drops what it covered", () => {
    const m = new MemoryEvents();
    m.sent("alice", 10);
    m.offer(event("alice", 15, 11));
    expect(taken(m)).toEqual({ seqs: [], waiting: 1 });
    m.dropFirst(1);
    expect(m.queued()).toBe(0);
  });

  it("an owner never sent, a first write (no previous seq) and a held owner wait for the outbox", () => {
    const unknown = new MemoryEvents();
    unknown.offer(event("carol", 5, 4));
    expect(taken(unknown)).toEqual({ seqs: [], waiting: 1 });

    const first = new MemoryEvents();
    first.sent("carol", 4);
    first.offer(event("carol", 5, null));
    expect(taken(first)).toEqual({ seqs: [], waiting: 1 });

    const held = new MemoryEvents();
    held.sent("carol", 4);
    held.offer(event("carol", 5, 4));
    held.offer(event("carol", 6, 5));
    expect(taken(held, (owner) => owner === "carol")).toEqual({ seqs: [], waiting: 2 });
  });

  it("events already sent from a read are dropped, and what follows them can go", () => {
    const m = new MemoryEvents();
    m.offer(event("alice", 11, 10));
    m.offer(event("alice", 12, 11));
    m.sent("alice", 11); // the outbox read sent 11 before its event was looked at
    expect(taken(m)).toEqual({ seqs: [12], waiting: 0 });
  });

  it("after a parked row or a failed batch the owner's events come from the outbox again", () => {
    const parked = new MemoryEvents();
    parked.sent("alice", 10);
    parked.forget("alice");
    parked.offer(event("alice", 11, 10));
    expect(taken(parked)).toEqual({ seqs: [], waiting: 1 });

    const failed = new MemoryEvents();
    failed.sent("alice", 10);
    failed.offer(event("alice", 11, 10));
    failed.reset();
    expect(failed.queued()).toBe(0);
    failed.offer(event("alice", 12, 11));
    expect(taken(failed)).toEqual({ seqs: [], waiting: 1 });
  });

  it("an event with a subject no owner can be read from waits for the outbox, which parks it", () => {
    const m = new MemoryEvents();
    m.offer({ ...event("alice", 11, 10), subject: "not-a-crumbs-subject" });
    expect(taken(m)).toEqual({ seqs: [], waiting: 1 });
  });
});
