import { rowsOf, type Database, type Executor } from "../db/database.ts";
import type { OutboxRow, ToPark } from "./batch.ts";
import * as statements from "./relay-statements.ts";

export interface RelayBatch {
  /** The oldest outbox rows, in seq order (every row in the outbox is unpublished). */
  rows: OutboxRow[];
  /** Per owner, the oldest parked seq. */
  heldFrom: Map<string, number>;
  /**
   * Reads, in the same transaction, the oldest rows committed since, leaving out the seqs given
   * (the rows this batch read already, whose deletes wait for the commit). The relay calls it
   * while it waits for acks, so an event committed meanwhile goes out without waiting for them.
   */
  readMore(limit: number, excluding: readonly string[]): Promise<{ rows: OutboxRow[]; heldFrom: Map<string, number> }>;
  /** Moves rows to outbox_parked; may take effect only when the batch commits. */
  park(rows: readonly ToPark[]): Promise<void>;
  /** Deletes rows JetStream acked; may take effect only when the batch commits. */
  deletePublished(seqs: readonly string[]): Promise<void>;
}

/**
 * Where the relay's batches live: one transaction that holds the relay lock
 * from the read to the deletes. The lock is what keeps other relays (other
 * replicas) away from the rows, so the read takes no row locks: a row lock is a
 * heap write and a WAL record per event, for nothing the advisory lock does not
 * give. Two drivers run the same statements (relay-statements.ts): drizzle on the
 * API's own database (PGlite, the in-process relay, below) and a postgres-js
 * connection of its own with prepared, pipelined statements (the relay thread,
 * relay-store-pg.ts).
 */
export interface RelayStore {
  /** Runs `fn` on one batch and commits; "busy" when another relay holds the lock. */
  batch<T>(limit: number, fn: (b: RelayBatch) => Promise<T>): Promise<T | "busy">;
  close(): Promise<void>;
}

/** The drizzle store: each step is its own statement, on whichever driver the API opened. */
export function drizzleRelayStore(database: Database): RelayStore {
  return {
    batch: (limit, fn) =>
      database.db.transaction(async (tx) => {
        const run = async (s: statements.Statement) => rowsOf<statements.ReadRow>(await tx.execute(statements.drizzleStatement(s)));
        const first = await run(statements.readLocking(limit));
        const pid = first[0]?.pid;
        if (!first[0]?.ok || pid === undefined) return "busy" as const;
        return fn({
          ...statements.batchOf(first),
          readMore: async (n, excluding) => statements.batchOf(await run(statements.readMore(pid, n, excluding))),
          park: async (parked) => void (await run(statements.park(pid, parked))),
          deletePublished: async (seqs) => void (await run(statements.deletePublished(pid, seqs))),
        });
      }),
    close: async () => {},
  };
}

/** Rows committed but not yet published (the backlog gauge). */
export async function outboxBacklog(db: Executor): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await db.execute(statements.drizzleStatement(statements.BACKLOG)));
  return Number(row?.n ?? 0);
}
