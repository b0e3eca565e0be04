import { CrumbsError } from "../errors.ts";
import { OwnerReads, type OwnerReadLimits, type ReadTicket } from "./owner-reads.ts";

export class OwnerReadsBusyError extends CrumbsError {
  constructor(limits: OwnerReadLimits, why: string) {
    super(
      "rate_limited",
      `this owner's reads are all busy (${limits.reads} at once, ${limits.bytes} bytes of pages): ${why}; retry shortly`,
      429,
      { limit: { name: "heavy reads per owner", max: limits.reads, unit: "reads" } },
      { headers: { "Retry-After": "1" } },
    );
  }
}

export interface OwnerReadGateOptions {
  /** Reads of one owner waiting at most, past the running ones; one more is 429 at once. */
  maxQueue: number;
  /** Longest wait for the owner's own turn before 429. */
  maxWaitMs: number;
}

/**
 * The IO edge of OwnerReads: a read awaits `acquire`, which resolves when the owner's share has
 * room (at once for an owner within it) and hands back the release. Waiting costs the waiter's
 * own owner only: other owners' reads never queue here.
 */
export class OwnerReadGate {
  private readonly state: OwnerReads;
  private readonly waiters = new Map<ReadTicket, { start: () => void; timer?: NodeJS.Timeout }>();

  constructor(
    readonly limits: OwnerReadLimits,
    private readonly opts: OwnerReadGateOptions,
  ) {
    this.state = new OwnerReads(limits);
  }

  /**
   * Resolves with the release once the read may run. `stream`: an SSE stream's next page, which
   * waits as long as it takes (the streams of an owner are bounded already) instead of failing.
   */
  acquire(owner: string, bytes: number, opts: { stream?: boolean } = {}): Promise<() => void> {
    const r = this.state.request(owner, bytes, opts.stream ? Number.POSITIVE_INFINITY : this.opts.maxQueue);
    if (r.kind === "refused") return Promise.reject(new OwnerReadsBusyError(this.limits, `${r.waiting} more are waiting`));
    const { ticket } = r;
    if (r.kind === "granted") return Promise.resolve(this.releaser(ticket));
    return new Promise((resolve, reject) => {
      const waiter: { start: () => void; timer?: NodeJS.Timeout } = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve(this.releaser(ticket));
        },
      };
      if (!opts.stream) {
        waiter.timer = setTimeout(() => {
          if (!this.state.withdraw(ticket)) return;
          this.waiters.delete(ticket);
          reject(new OwnerReadsBusyError(this.limits, `waited ${this.opts.maxWaitMs} ms`));
        }, this.opts.maxWaitMs);
        waiter.timer.unref();
      }
      this.waiters.set(ticket, waiter);
    });
  }

  usage(owner: string) {
    return this.state.usage(owner);
  }

  private releaser(ticket: ReadTicket): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const next of this.state.release(ticket)) {
        const w = this.waiters.get(next);
        this.waiters.delete(next);
        w?.start();
      }
    };
  }
}
