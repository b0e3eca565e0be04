// Failures of a background task that retries on its own (the action subscription, the action
// runner's start) are shown in the activity log the side panel shows, instead of being swallowed.
// A task that keeps failing, e.g. the subscription while NATS is away, retries every 10 s: one
// line each would push the log's last 200 entries out within about half an hour, so a streak gets
// its first line, one every 10th failure, and one when the task works again.

export type ReportLine = (text: string, ok: boolean) => void;

export const REPORT_EVERY = 10;

export class FailureStreak {
  private n = 0;

  constructor(
    /** What failed, as the log says it: "the action subscription". */
    private readonly what: string,
    private readonly report: ReportLine,
  ) {}

  /** Failures in a row so far. */
  get count(): number {
    return this.n;
  }

  failed(err: unknown): void {
    this.n++;
    if (this.n !== 1 && this.n % REPORT_EVERY !== 0) return;
    const times = this.n === 1 ? "" : ` (${this.n} times in a row)`;
    this.report(`${this.what} failed${times}, retrying: ${messageOf(err)}`, false);
  }

  succeeded(): void {
    if (this.n > 0) this.report(`${this.what} works again after ${this.n} ${this.n === 1 ? "failure" : "failures"}`, true);
    this.n = 0;
  }
}

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
