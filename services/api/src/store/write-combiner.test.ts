import { describe, expect, it } from "vitest";
import { takeBatch, WriteCombiner } from "./write-combiner.ts";

interface W {
  owner: string;
  n: number;
}

/** A statement the test finishes by hand. */
interface Pending {
  writes: readonly W[];
  finish(results?: readonly string[]): void;
  fail(err: unknown): void;
}

function harness(slots: number, maxPerStatement: number, alone: (w: W) => Promise<string> = async (w) => `alone ${w.n}`) {
  const batches: Pending[] = [];
  // The event loop's turn, ended by hand: the writes sent before endTurn() are one turn's.
  const deferred: (() => void)[] = [];
  const endTurn = () => {
    while (deferred.length > 0) deferred.shift()!();
  };
  const combiner = new WriteCombiner<W, string>({
    defer: (start) => void deferred.push(start),
    slots,
    maxPerStatement,
    runBatch: (writes) =>
      new Promise((resolve, reject) => {
        batches.push({ writes, finish: (r) => resolve(r ?? writes.map((w) => `batch ${w.n}`)), fail: reject });
      }),
    runAlone: alone,
  });
  return { combiner, batches, endTurn };
}

const w = (owner: string, n: number): W => ({ owner, n });
const tick = () => new Promise((r) => setImmediate(r));

describe("takeBatch", () => {
  it("takes the oldest writes of distinct, idle owners up to the limit and keeps the rest in order", () => {
    const queue = [w("a", 1), w("b", 2), w("a", 3), w("c", 4), w("d", 5), w("e", 6)];
    expect(takeBatch(queue, new Set(["c"]), 3).map((x) => x.n)).toEqual([1, 2, 5]);
    expect(queue.map((x) => x.n)).toEqual([3, 4, 6]);
  });

  it("never takes an owner's later write past its earlier one", () => {
    const queue = [w("a", 1), w("a", 2), w("b", 3)];
    expect(takeBatch(queue, new Set(["a"]), 8).map((x) => x.n)).toEqual([3]);
    expect(queue.map((x) => x.n)).toEqual([1, 2]);
  });
});

describe("WriteCombiner", () => {
  it("runs the one write of a turn alone while a slot is free", async () => {
    const { combiner, batches, endTurn } = harness(2, 8);
    const one = combiner.write(w("a", 1));
    endTurn();
    expect(await one).toBe("alone 1");
    expect(batches).toHaveLength(0);
    expect(combiner.stats).toMatchObject({ statements: 1, writes: 1, combined: 0 });
  });

  it("sends the writes of one turn as one statement even while a slot is free", async () => {
    const { combiner, batches, endTurn } = harness(2, 8);
    const all = [w("a", 1), w("b", 2), w("c", 3)].map((x) => combiner.write(x));
    endTurn();
    expect(batches.map((b) => b.writes.map((x) => x.n))).toEqual([[1, 2, 3]]);
    batches[0]!.finish();
    expect(await Promise.all(all)).toEqual(["batch 1", "batch 2", "batch 3"]);
  });

  it("sends what waits while the slots are busy as one statement when one finishes", async () => {
    const gates: (() => void)[] = [];
    const { combiner, batches, endTurn } = harness(1, 3, (x) => new Promise((r) => gates.push(() => r(`alone ${x.n}`))));
    const first = combiner.write(w("a", 1));
    endTurn();
    const rest = [w("b", 2), w("c", 3), w("d", 4), w("e", 5)].map((x) => combiner.write(x));
    endTurn();
    expect(combiner.waiting).toBe(4);
    gates.shift()!();
    expect(await first).toBe("alone 1");
    await tick();
    expect(batches.map((b) => b.writes.map((x) => x.n))).toEqual([[2, 3, 4]]);
    batches[0]!.finish();
    await tick();
    gates.shift()!();
    expect(await Promise.all(rest)).toEqual(["batch 2", "batch 3", "batch 4", "alone 5"]);
    expect(combiner.stats).toMatchObject({ statements: 3, writes: 5, combined: 1, largest: 3 });
  });

  it("keeps an owner's second write out of flight until its first finished", async () => {
    const { combiner, batches, endTurn } = harness(4, 8);
    void combiner.write(w("a", 1));
    void combiner.write(w("a", 2));
    void combiner.write(w("b", 3));
    endTurn();
    // a1 and b3 went together; a2 waits for a1.
    expect(batches.map((b) => b.writes.map((x) => x.n))).toEqual([[1, 3]]);
    expect(combiner.waiting).toBe(1);
    batches[0]!.finish();
    await tick();
    expect(combiner.waiting).toBe(0);
    expect(combiner.stats).toMatchObject({ statements: 2, writes: 3 });
  });

  it("runs each write of a failed statement alone, so each gets its own answer", async () => {
    const { combiner, batches, endTurn } = harness(1, 8, (x) => (x.n === 3 ? Promise.reject(new Error("bad 3")) : Promise.resolve(`alone ${x.n}`)));
    const all = [w("b", 2), w("c", 3), w("d", 4)].map((x) => combiner.write(x).catch((e: Error) => e.message));
    endTurn();
    batches[0]!.fail(new Error("deadlock detected"));
    expect(await Promise.all(all)).toEqual(["alone 2", "bad 3", "alone 4"]);
    expect(combiner.stats).toMatchObject({ combined: 1, fallbacks: 3, writes: 3 });
  });

  it("treats a statement that gave the wrong number of results as failed", async () => {
    const { combiner, batches, endTurn } = harness(1, 8);
    const all = [w("b", 2), w("c", 3)].map((x) => combiner.write(x));
    endTurn();
    batches[0]!.finish(["only one"]);
    expect(await Promise.all(all)).toEqual(["alone 2", "alone 3"]);
  });
});
