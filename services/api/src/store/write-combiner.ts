/**
 * Sends concurrent writes of distinct owners as one statement (store/combined-write-statement.ts).
 * Pure batching: the statements themselves are the caller's (`runBatch`, `runAlone`).
 *
 * No timer and no waiting for company: a write starts at the end of the event loop's turn in which it
 * came (`defer`), with the other writes of that turn, while fewer than `slots` statements are in flight
 * (one per pool connection; an idle API writes one by one as before). Under load the slots are busy and
 * writes queue here instead of in the driver's pipeline; when a statement finishes, up to
 * `maxPerStatement` of the waiting writes go next as one statement. Sharing one executor start, commit
 * and WAL flush, 4-8 writes per statement cost 37-55% less Postgres CPU per write than one each
 * (bench/results 47). Starting each write at once when a slot was free made 80% of the statements of the
 * write-path bench singles (2.3 writes per statement in all; bench/results 49).
 *
 * At most one write per owner is in flight: a statement never holds two writes of an owner, and two
 * statements never hold the same owner, so within this process an owner's writes run in the order
 * they came, and two combined statements never wait on each other's rows (no lock-order deadlock).
 */
export interface CombinerOptions<W, R> {
  /** Statements in flight at once (the pool's connections). */
  slots: number;
  maxPerStatement: number;
  /** One statement for `batch` (2 or more writes, distinct owners): one result per write, in order. */
  runBatch(batch: readonly W[]): Promise<readonly R[]>;
  /** One write on its own: a batch of one, and each write of a batch whose statement failed. */
  runAlone(write: W): Promise<R>;
  /**
   * When a new write may start: `setImmediate` in the API, so that the writes whose requests were read
   * in one turn of the event loop share a statement even while a connection is free.
   */
  defer(start: () => void): void;
}

interface Waiting<W, R> {
  write: W;
  resolve(r: R): void;
  reject(err: unknown): void;
}

export interface CombinerStats {
  /** Statements sent: batches, singles and fallbacks alike. */
  statements: number;
  /** Writes settled. */
  writes: number;
  /** Statements of 2 or more writes. */
  combined: number;
  /** Writes of a failed combined statement that then ran alone. */
  fallbacks: number;
  /** The most writes one statement held. */
  largest: number;
}

/**
 * Takes from `queue` (in place) up to `max` writes whose owners are neither in `busy` nor taken
 * already, oldest first. A write passed over keeps its place, and so does every later write of its
 * owner: each owner's writes leave in the order they came.
 */
export function takeBatch<T extends { owner: string }>(queue: T[], busy: ReadonlySet<string>, max: number): T[] {
  const taken: T[] = [];
  const owners = new Set<string>();
  const kept: T[] = [];
  for (const item of queue) {
    if (taken.length < max && !busy.has(item.owner) && !owners.has(item.owner)) {
      owners.add(item.owner);
      taken.push(item);
    } else {
      // Passing over an owner's write marks the owner taken, so its later writes wait too.
      owners.add(item.owner);
      kept.push(item);
    }
  }
  queue.length = 0;
  queue.push(...kept);
  return taken;
}

export class WriteCombiner<W extends { owner: string }, R> {
  private readonly queue: (Waiting<W, R> & { owner: string })[] = [];
  private readonly busy = new Set<string>();
  private inFlight = 0;
  private pumpScheduled = false;
  readonly stats: CombinerStats = { statements: 0, writes: 0, combined: 0, fallbacks: 0, largest: 0 };

  constructor(private readonly opts: CombinerOptions<W, R>) {}

  write(write: W): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ write, owner: write.owner, resolve, reject });
      if (this.pumpScheduled) return;
      this.pumpScheduled = true;
      this.opts.defer(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    });
  }

  /** Writes waiting for a slot or for their owner's write in flight. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    while (this.inFlight < this.opts.slots && this.queue.length > 0) {
      const batch = takeBatch(this.queue, this.busy, this.opts.maxPerStatement);
      if (batch.length === 0) return;
      this.inFlight++;
      for (const w of batch) this.busy.add(w.owner);
      void this.send(batch).finally(() => {
        this.inFlight--;
        for (const w of batch) this.busy.delete(w.owner);
        this.pump();
      });
    }
  }

  private async send(batch: Waiting<W, R>[]): Promise<void> {
    const s = this.stats;
    s.statements++;
    s.largest = Math.max(s.largest, batch.length);
    if (batch.length === 1) return this.alone(batch[0]!);
    s.combined++;
    let results: readonly R[];
    try {
      results = await this.opts.runBatch(batch.map((b) => b.write));
      if (results.length !== batch.length) throw new Error(`a combined statement of ${batch.length} writes gave ${results.length} results`);
    } catch {
      // The statement failed as a whole (e.g. a deadlock with another replica's statement, or one write's
      // error): nothing of it committed, so each write runs alone and gets its own answer or error.
      s.fallbacks += batch.length;
      s.statements += batch.length;
      await Promise.all(batch.map((b) => this.alone(b)));
      return;
    }
    s.writes += batch.length;
    batch.forEach((b, i) => b.resolve(results[i]!));
  }

  private async alone(b: Waiting<W, R>): Promise<void> {
    try {
      b.resolve(await this.opts.runAlone(b.write));
    } catch (err) {
      b.reject(err);
    } finally {
      this.stats.writes++;
    }
  }
}
