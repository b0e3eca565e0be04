// When to capture the page: every trigger (tab switch, navigation, load, DOM change) asks for an
// update; a short settle window merges the bursts one user action causes (activated + committed +
// complete), and starts are at least `minIntervalMs` apart (docs/extension.md: at most one update
// per 500 ms).

export interface Timers {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface SchedulerOptions {
  settleMs: number;
  minIntervalMs: number;
}

export const DEFAULT_SCHEDULE: SchedulerOptions = { settleMs: 80, minIntervalMs: 500 };

export class UpdateScheduler {
  private timer: unknown;
  private running = false;
  private pending = false;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly timers: Timers = realTimers,
    private readonly opts: SchedulerOptions = DEFAULT_SCHEDULE,
  ) {}

  /** Ask for one update; any number of calls before it starts give one update. */
  trigger(): void {
    this.pending = true;
    if (this.running || this.timer !== undefined) return;
    this.arm();
  }

  get idle(): boolean {
    return !this.running && this.timer === undefined && !this.pending;
  }

  private arm(): void {
    const wait = Math.max(this.opts.settleMs, this.lastStart + this.opts.minIntervalMs - this.timers.now());
    this.timer = this.timers.set(() => void this.fire(), wait);
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    this.pending = false;
    this.running = true;
    this.lastStart = this.timers.now();
    try {
      await this.run();
    } catch {
      // The run reports its own failures; the next trigger tries again.
    } finally {
      this.running = false;
      if (this.pending) this.arm();
    }
  }
}
