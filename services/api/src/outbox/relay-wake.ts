import { setImmediate } from "node:timers/promises";
import type { PipelinedRun } from "./pipelined-run.ts";
import type { CancelTimer, RelayClock } from "./relay-clock.ts";

// What wakes the relay and how long an open batch waits, apart from what a batch does (relay.ts):
// the flags below and the batch's timers are the relay's whole waiting state, and every change to
// them is a method here, so the loop reads as steps instead of flag updates.

export interface CommitLatch {
  /** A batch starts: it will see every row committed so far. */
  beginBatch(): void;
  /** True when a commit came after the last beginBatch; false leaves the latch idle (the next commit wakes the relay). */
  sinceBegin(): boolean;
}

/**
 * What the open batch does next: "kick" at the next kick or event, "gap" when handed-over events
 * waited too long for their owners' previous ones, "done" when the batch should close.
 */
export type BatchStep = "kick" | "gap" | "done";

export interface BatchTimes {
  /** How long a batch whose publishes are all acked stays open for the next event. */
  lingerMs: number;
  /** How long a batch may stay open in all. */
  maxBatchMs: number;
  /** How long handed-over events wait for their owner's previous one. */
  gapWaitMs: number;
}

export class RelayWake {
  /** A kick or an event came since the batch last looked. */
  private again = false;
  /** A kick came that brought no event (a poll, a reconnect, a write of another kind): the outbox has rows to read. */
  private needsRead = false;
  /** Set while a batch waits for its acks or a kick (next). */
  private waiter: (() => void) | undefined;

  constructor(
    private readonly times: BatchTimes,
    private readonly clock: RelayClock,
    /** Commits seen from another thread (relay-worker.ts). */
    private readonly commits?: CommitLatch,
  ) {}

  /** A kick that brought no event: the next look reads the outbox. */
  kickRead(): void {
    this.needsRead = true;
  }

  /** A kick or an event came while the relay runs: the waiting batch wakes, the loop looks again. */
  notify(): void {
    this.again = true;
    this.waiter?.();
    this.waiter = undefined;
  }

  /** A batch, or a look within one, begins: it sees every kick and commit so far. */
  beginLook(): void {
    this.again = false;
    this.commits?.beginBatch();
  }

  /** The outbox is about to be read: it answers every kick so far. */
  readStarted(): void {
    this.needsRead = false;
  }

  readNeeded(): boolean {
    return this.needsRead;
  }

  /** Nothing came since the batch began: the relay may sleep (a commit from another thread then wakes it). */
  quiet(): boolean {
    return !this.again && !this.needsRead && !this.commits?.sinceBegin();
  }

  /**
   * What the open batch does next: "kick" at the next kick or event (while acks are awaited, and
   * once they are all in for lingerMs, within the batch's maxBatchMs), "gap" when events have
   * waited gapWaitMs for their owners' previous ones, "done" when the batch should close.
   */
  async nextInBatch(run: Pick<PipelinedRun, "settled" | "failed">, openedAt: number, waitingSince: number | undefined, stopped: () => boolean): Promise<BatchStep> {
    const timers: CancelTimer[] = [];
    const after = <T>(ms: number, value: T) =>
      new Promise<T>((resolve) => {
        timers.push(this.clock.after(ms, () => resolve(value)));
      });
    try {
      const kick = this.next().then(() => "kick" as const);
      const gap = waitingSince === undefined ? [] : [after(waitingSince + this.times.gapWaitMs - this.clock.now(), "gap" as const)];
      const first = await Promise.race([run.settled(), kick, ...gap]);
      if (first === "kick") return first;
      let timedOut: "gap" | "done" = "gap";
      if (first === "settled") {
        const left = Math.min(this.times.lingerMs, this.times.maxBatchMs - (this.clock.now() - openedAt));
        if (left <= 0 || run.failed() || stopped()) return "done";
        const second = await Promise.race([kick, ...gap, after(left, "done" as const)]);
        if (second === "kick") return second;
        timedOut = second;
      }
      // A timer ran first, which on a busy machine can mean only that this thread was off its CPU
      // while events were posted: let them arrive before giving up on them.
      await setImmediate();
      return this.again ? "kick" : timedOut;
    } finally {
      for (const cancel of timers) cancel();
      this.waiter = undefined;
    }
  }

  /** Resolves at the next kick or event, at once when one came since the last read began. */
  private next(): Promise<void> {
    // The shared flag only carries commits that handed no event over (relay-protocol.ts).
    if (this.commits?.sinceBegin()) this.needsRead = true;
    if (this.again || this.needsRead) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }
}
