import { CrumbsError } from "../errors.ts";

export class TooManyStreamsError extends CrumbsError {
  constructor(max: number) {
    super("rate_limited", `this owner already has ${max} open event streams; close one first`, 429, { limit: { name: "open event streams", max, unit: "streams" } }, {
      headers: { "Retry-After": "5" },
    });
  }
}

/**
 * Open SSE streams per owner (every key of it together): each holds a connection, a notifier
 * listener and a history reader, so one owner must not open them without bound, however many
 * keys it mints. Pure and in-process (per replica, like the rate limits).
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot or throws 429; the returned release is idempotent. */
  acquire(key: string): () => void {
    const n = this.open.get(key) ?? 0;
    if (n >= this.max) throw new TooManyStreamsError(this.max);
    this.open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    };
  }

  count(key: string): number {
    return this.open.get(key) ?? 0;
  }
}
