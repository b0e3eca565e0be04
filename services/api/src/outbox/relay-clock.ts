/** Cancels a timer; calling it after the timer ran does nothing. */
export type CancelTimer = () => void;

/**
 * The relay's time: its timers (the linger and gap waits of an open batch, the backoff after a
 * failure, the look again while another relay holds the lock, the fallback poll, the restart of a
 * dead relay thread) and the instant they are measured from. Passed in, so tests move time
 * themselves (relay-clock.fixture.ts) instead of sleeping.
 */
export interface RelayClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /**
   * Runs `fn` once after `ms`. A background timer does not keep the process alive (the poll, the
   * backoff, the restart); a batch's own waits do, since the batch holds a transaction open.
   */
  after(ms: number, fn: () => void, background?: boolean): CancelTimer;
}

export const systemClock: RelayClock = {
  now: () => performance.now(),
  after(ms, fn, background = false) {
    const t = setTimeout(fn, Math.max(0, ms));
    if (background) t.unref();
    return () => clearTimeout(t);
  },
};
