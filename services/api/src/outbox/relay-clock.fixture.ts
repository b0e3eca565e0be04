import type { CancelTimer, RelayClock } from "./relay-clock.ts";

/** A clock that moves only when the test says so: timers due by then run in time order. */
export class ManualClock implements RelayClock {
  private t = 0;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.t;
  }

  after(ms: number, fn: () => void): CancelTimer {
    const id = this.nextId++;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return () => void this.timers.delete(id);
  }

  /** The delays of the timers still waiting, from now, soonest first. */
  pending(): number[] {
    return [...this.timers.values()].map((x) => x.at - this.t).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, running each timer that falls due, in order (a timer may set another). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
}
