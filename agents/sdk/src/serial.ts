/**
 * Runs steps one after another in the order they were given: each starts once the one before has
 * settled and resolves or rejects as it does, and a failed step never stops the ones behind it.
 * For state that a quick sequence of calls must change in order (a lease renewed while it is being
 * stopped, a consumer torn down while it is being created).
 */
export class Serial {
  private tail: Promise<void> = Promise.resolve();

  run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.tail.then(step);
    this.tail = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }
}
