/**
 * Runs tasks at most `limit` at a time, and the tasks of one key one after another in the order
 * they were given: events of one conversation stay in stream order while other conversations
 * go on beside them. A task waiting behind its key's earlier one counts against the limit, so
 * the caller never takes more work than `limit`.
 */
export class KeyedLanes {
  private readonly tails = new Map<string, Promise<void>>();
  private admitted = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a whole number >= 1, not ${limit}`);
  }

  /** Start `task` once the earlier tasks of `key` have finished; resolves or rejects as it does. */
  run(key: string, task: () => Promise<void>): Promise<void> {
    this.admitted++;
    const before = this.tails.get(key) ?? Promise.resolve();
    const done = before.then(task);
    const tail: Promise<void> = done.then(
      () => this.finished(key, tail),
      () => this.finished(key, tail),
    );
    this.tails.set(key, tail);
    return done;
  }

  /** Resolves once fewer than `limit` tasks are given and not finished: room for one more. */
  async room(): Promise<void> {
    while (this.admitted >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private finished(key: string, tail: Promise<void>): void {
    this.admitted--;
    if (this.tails.get(key) === tail) this.tails.delete(key);
    // Every waiter checks again: each finds room or waits for the next task to finish.
    for (const wake of this.waiting.splice(0)) wake();
  }
}
