import type { Logger } from "@crumbs/telemetry";
import type { StoreDeps } from "../store/store-deps.ts";
import { expireDue } from "../store/expiry.ts";
import { pruneIdempotencyKeys } from "../store/idempotency.ts";
import type { RetentionPolicy } from "./policy.ts";
import { pruneSchemaHistory, type PruneCursor } from "./prune.ts";

export interface SweeperOptions {
  store: StoreDeps;
  policy: RetentionPolicy;
  /** Idempotency keys older than this go (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** Pause between sweeps. */
  intervalMs?: number;
  /**
   * Rows per statement (rows examined, for history retention): small, so a sweep never holds
   * locks long enough to slow writes.
   */
  batchSize?: number;
  log?: Logger;
}

export interface SweepResult {
  expired: number;
  pruned: number;
  idempotencyKeys: number;
}

/**
 * Background housekeeping: TTL expiry (with deleted events), history
 * retention and expired idempotency keys, in small
 * batches on a timer, never on the write path.
 */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private readonly batchSize: number;
  /** Per schema, where the retention walk goes on at the next batch (absent: from the start). */
  private readonly pruneFrom = new Map<string, PruneCursor>();

  constructor(private readonly opts: SweeperOptions) {
    this.batchSize = opts.batchSize ?? 200;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.sweep()
        .catch((err: unknown) => this.opts.log?.error({ err }, "retention sweep failed, will retry"))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) {
            this.timer = setTimeout(tick, this.opts.intervalMs ?? 5_000);
            this.timer.unref();
          }
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One full pass. Each batch is its own short transaction; a pass ends when
   * a batch comes back short, or after `maxBatches` so one pass stays bounded.
   */
  async sweep(maxBatches = 50): Promise<SweepResult> {
    const result: SweepResult = { expired: 0, pruned: 0, idempotencyKeys: 0 };
    for (let i = 0; i < maxBatches && !this.stopped; i++) {
      const n = await expireDue(this.opts.store, this.batchSize);
      result.expired += n;
      if (n < this.batchSize) break;
    }
    // A pass walks each schema's history on from where the last one stopped, at most maxBatches
    // windows of batchSize rows, and starts again from the top once it has reached the end.
    for (const [schema, rule] of this.opts.policy) {
      for (let i = 0; i < maxBatches && !this.stopped; i++) {
        const batch = await pruneSchemaHistory(this.opts.store.database.db, schema, rule, {
          scan: this.batchSize,
          after: this.pruneFrom.get(schema),
        });
        result.pruned += batch.deleted;
        if (!batch.next) {
          this.pruneFrom.delete(schema);
          break;
        }
        this.pruneFrom.set(schema, batch.next);
      }
    }
    const { db } = this.opts.store.database;
    result.idempotencyKeys = await this.batched(maxBatches, (n) =>
      pruneIdempotencyKeys(db, this.opts.idempotencyTtlSeconds ?? 86_400, n),
    );
    return result;
  }

  private async batched(maxBatches: number, step: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches && !this.stopped; i++) {
      const n = await step(this.batchSize);
      total += n;
      if (n < this.batchSize) break;
    }
    return total;
  }
}
