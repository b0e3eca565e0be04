import { sql, type SQL } from "drizzle-orm";

/**
 * How a write gets its `seq`, and why readers can trust it.
 *
 * Readers follow one owner's history by seq (`/v1/events?after=`, SSE, replay): that is only safe if,
 * within an owner, seq order is commit order, so that no event can commit later with a lower seq
 * than one a reader already passed. Every write therefore takes its owner's commit lock (a
 * transaction-scoped advisory lock on the owner) before drawing the next value of the
 * `history_seq` sequence, and holds it until it commits: two writes of one owner draw and commit
 * one after the other, and writes of different owners never wait for each other.
 *
 * It replaces one counter row that every commit of every owner waited on. Measured with pgbench
 * on the same statement shape, 16 clients each its own owner (docs/scaling.md and BENCHMARKS.md
 * have the figures): the counter row 590-1,140 tps, this lock plus a sequence 3,260-3,890, a
 * per-owner counter row 3,410-4,530, a bare sequence with no ordering 4,560-5,410. The per-owner
 * counter row would need (owner, seq) keys everywhere for the same result; a sequence with a
 * visibility horizon for readers would keep every reader guessing about transactions in flight.
 *
 * seq is unique and increases per owner; across owners it says nothing about order, and it may
 * skip values (a sequence does not roll back, and jumps ahead after a server crash).
 */

/**
 * First key of the two-key advisory locks taken per owner. Two-key and one-key advisory locks
 * never conflict in Postgres, so the relay's and the migrations' one-key locks are unaffected;
 * owners whose hashes collide merely share a lock.
 */
export const OWNER_LOCK_SPACE = 0x6372_756d; // "crum"

/** `pg_advisory_xact_lock` on the owner given as an SQL expression; held to the end of the transaction. */
export const ownerCommitLock = (owner: SQL): SQL => sql`pg_advisory_xact_lock(${sql.raw(String(OWNER_LOCK_SPACE))}, hashtext(${owner}))`;

/** The next seq: only ever drawn while the owner's commit lock is held. */
export const NEXT_SEQ = sql`nextval('history_seq')`;
