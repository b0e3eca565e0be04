import { describe, expect, it } from "vitest";
import { UpdateScheduler, type Timers } from "./scheduler.ts";

/** A manual clock: advance() fires due timers in order. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => {
      const id = ++seq;
      due.set(id, { at: now + ms, fn });
      return id;
    },
    clear: (h) => void due.delete(h as number),
  };
  async function advance(ms: number) {
    const end = now + ms;
    for (;;) {
      const next = [...due.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > end) break;
      due.delete(next[0]);
      now = next[1].at;
      next[1].fn();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
    now = end;
  }
  return { timers, advance, now: () => now };
}

describe("UpdateScheduler", () => {
  it("a burst of triggers gives one update after the settle window", async () => {
    const t = fakeTimers();
    const starts: number[] = [];
    const s = new UpdateScheduler(async () => void starts.push(t.now()), t.timers, { settleMs: 80, minIntervalMs: 500 });
    s.trigger();
    s.trigger();
    await t.advance(50);
    s.trigger();
    await t.advance(100);
    expect(starts).toEqual([80]);
    expect(s.idle).toBe(true);
  });

  it("never starts twice within the minimum interval, and loses no trigger", async () => {
    const t = fakeTimers();
    const starts: number[] = [];
    const s = new UpdateScheduler(async () => void starts.push(t.now()), t.timers, { settleMs: 80, minIntervalMs: 500 });
    for (let i = 0; i < 40; i++) {
      s.trigger();
      await t.advance(50);
    }
    await t.advance(1000);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(500);
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(starts.at(-1)).toBeGreaterThanOrEqual(1950); // the last trigger (t=1950) was served
  });

  it("a trigger during a slow run schedules exactly one follow-up", async () => {
    const t = fakeTimers();
    let release!: () => void;
    let runs = 0;
    const s = new UpdateScheduler(
      () => {
        runs++;
        return runs === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
      },
      t.timers,
      { settleMs: 80, minIntervalMs: 500 },
    );
    s.trigger();
    await t.advance(100);
    s.trigger();
    s.trigger();
    await t.advance(2000);
    expect(runs).toBe(1);
    release();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    await t.advance(600);
    expect(runs).toBe(2);
  });
});
