import { describe, expect, it } from "vitest";
import type { Outgoing } from "./batch.ts";
import { outboxRow as row, UNSENDABLE as unsendable } from "./outbox-rows.fixture.ts";
import { PipelinedRun, type PublishFn } from "./pipelined-run.ts";

/** A stream that checks expected-last-msg-id as JetStream does, answering when told to. */
function fakeStream() {
  const stored: string[] = [];
  const pending: { m: Outgoing; previous: string | undefined; resolve(at: number): void; reject(e: Error): void }[] = [];
  const publish: PublishFn = (m, previous) =>
    new Promise((resolve, reject) => pending.push({ m, previous, resolve, reject }));
  return {
    stored,
    publish,
    sentWith: () => pending.map((p) => [p.m.row.msg_id, p.previous]),
    /** Answers every publish waiting, in order; `refuse` is refused as a wrong-last-id would be. */
    answer(refuse?: string) {
      for (const p of pending.splice(0)) {
        const last = stored.at(-1);
        if (p.m.row.msg_id === refuse || (p.previous !== undefined && p.previous !== last)) p.reject(new Error("wrong last msg id"));
        else {
          stored.push(p.m.row.msg_id);
          p.resolve(performance.now());
        }
      }
    },
  };
}

describe("PipelinedRun", () => {
  it("chains rows read while acks are awaited after the ones in flight, and all are acked in order", async () => {
    const s = fakeStream();
    const run = new PipelinedRun(new Map(), 64 * 1024);
    run.add([row(1, "a"), row(2, "b")], s.publish);
    run.add([row(3, "a")], s.publish);
    expect(s.sentWith()).toEqual([
      ["id1:1:updated", undefined],
      ["id2:1:updated", "id1:1:updated"],
      ["id3:1:updated", "id2:1:updated"],
    ]);
    expect(run.seqs()).toEqual(["1", "2", "3"]);
    s.answer();
    const { ackedAt, failure } = await run.outcome();
    expect(failure).toBeUndefined();
    expect(ackedAt).toHaveLength(3);
    expect(s.stored).toEqual(["id1:1:updated", "id2:1:updated", "id3:1:updated"]);
  });

  it("after a refused message, every later one is refused too, across reads: only the prefix counts as acked", async () => {
    const s = fakeStream();
    const run = new PipelinedRun(new Map(), 64 * 1024);
    run.add([row(1, "a"), row(2, "b")], s.publish);
    run.add([row(3, "c")], s.publish);
    s.answer("id2:1:updated");
    const { ackedAt, failure } = await run.outcome();
    expect(run.failed()).toBe(true);
    expect(ackedAt).toHaveLength(1);
    expect(String(failure)).toContain("wrong last msg id");
    expect(s.stored).toEqual(["id1:1:updated"]);
  });

  it("a row parked in one read holds its owner's rows in the later reads", () => {
    const s = fakeStream();
    const run = new PipelinedRun(new Map(), 1_500);
    const first = run.add([row(1, "a", unsendable), row(2, "b")], s.publish);
    const later = run.add([row(3, "a"), row(4, "b")], s.publish);
    expect(first.map((p) => p.row.seq)).toEqual(["1"]);
    expect(later.map((p) => [p.row.seq, p.reason])).toEqual([["3", "held behind parked seq 1 of owner a"]]);
    expect(s.sentWith().map(([id]) => id)).toEqual(["id2:1:updated", "id4:1:updated"]);
    expect(run.parkedCount()).toBe(2);
    expect(run.size()).toBe(4);
  });

  it("owners parked by someone else since the first read hold their later rows", () => {
    const s = fakeStream();
    const run = new PipelinedRun(new Map(), 64 * 1024);
    run.add([row(5, "a")], s.publish);
    run.addHeld(new Map([["a", 6]]));
    const parked = run.add([row(7, "a")], s.publish);
    expect(parked.map((p) => p.row.seq)).toEqual(["7"]);
  });

  it("settled() waits for the publishes sent so far", async () => {
    const s = fakeStream();
    const run = new PipelinedRun(new Map(), 64 * 1024);
    run.add([row(1, "a")], s.publish);
    let done = false;
    const settled = run.settled().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    s.answer();
    await settled;
    expect(done).toBe(true);
  });
});
