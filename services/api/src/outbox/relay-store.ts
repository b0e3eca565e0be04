import { sql } from "drizzle-orm";
import { rowsOf, type Database, type Executor } from "../db/database.ts";
import type { OutboxRow, ToPark } from "./batch.ts";
import { parkedOwners, parkRow } from "./parked.ts";

/** One relay at a time publishes, which keeps the stream in seq order across replicas. */
export const RELAY_LOCK_KEY = 0x63_72_75_6d_62_72n; // "crumbr"

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
 * give. Two kinds: drizzle on the API's own database (PGlite, the in-process
 * relay) and a postgres-js connection of its own with prepared, pipelined
 * statements (the relay thread, relay-store-pg.ts).
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
        const [lock] = rowsOf<{ ok: boolean }>(
          await tx.execute(sql`select pg_try_advisory_xact_lock(${RELAY_LOCK_KEY.toString()}::bigint) as ok`),
        );
        if (!lock?.ok) return "busy" as const;
        const read = async (n: number, excluding: readonly string[]) => {
          const rows = rowsOf<OutboxRow>(
            await tx.execute(sql`
              select seq::text as seq, subject, msg_id, payload::text as payload,
                     (extract(epoch from clock_timestamp() - created_at) * 1000)::float8 as waited_ms
              from outbox
              where seq <> all(${seqArray(excluding)})
              order by outbox.seq limit ${n}`),
          );
          return { rows, heldFrom: rows.length > 0 ? await parkedOwners(tx) : new Map<string, number>() };
        };
        const { rows, heldFrom } = await read(limit, []);
        return fn({
          rows,
          heldFrom,
          readMore: read,
          async park(parked) {
            for (const p of parked) await parkRow(tx, p.row.seq, p.owner, p.reason);
          },
          async deletePublished(seqs) {
            await tx.execute(sql`delete from outbox where seq = any(${seqArray(seqs)})`);
          },
        });
      }),
    close: async () => {},
  };
}

/** Rows committed but not yet published (the backlog gauge). */
export async function outboxBacklog(db: Executor): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from outbox`));
  return Number(row?.n ?? 0);
}

/** A bigint[] parameter from seqs, as one text value (both drivers bind it the same way). */
function seqArray(seqs: readonly string[]) {
  return sql`string_to_array(${seqs.join(",")}, ',')::bigint[]`;
}
