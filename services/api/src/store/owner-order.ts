import { sql, type SQL } from "drizzle-orm";

/**
 * How a write gets its `seq`, and why readers can trust it.
 *
 * Readers follow one owner's history by seq (`/v1/events?after=`, SSE, replay): that is only safe if,
 * within an owner, seq order is commit order, so that no event can commit later with a lower seq
 * than one a reader already passed. Every write therefore upserts its owner's head row
 * (`owner_heads`) and draws the next value of the `history_seq` sequence inside that upsert, after
 * the row lock, which it holds until it commits: two writes of one owner draw and commit one after
 * the other, and writes of different owners never wait for each other.
 *
 * The row also returns the owner's previous seq, as the latest committed row has it (an UPDATE
 * sees the latest committed version of the row it locked; a SELECT in the same statement would
 * see the statement's older snapshot). The relay uses it to publish an event handed to it in
 * memory only right after the owner's previous one (outbox/relay.ts).
 *
 * It replaces one counter row that every commit of every owner waited on. Measured with pgbench
 * on the same statement shape, 16 clients each its own owner (docs/scaling.md and BENCHMARKS.md
 * have the figures): the counter row 590-1,140 tps, an advisory lock per owner plus a sequence
 * 3,260-3,890, a per-owner counter row 3,410-4,530, a bare sequence with no ordering 4,560-5,410.
 * A sequence with a visibility horizon for readers would keep every reader guessing about
 * transactions in flight.
 *
 * seq is unique and increases per owner; across owners it says nothing about order, and it may
 * skip values (a sequence does not roll back, and jumps ahead after a server crash).
 */

/**
 * CTEs that move the head row of the owner `source` yields (one row, an `owner` column) to the next
 * seq, drawn under the row's lock, and end in `s (seq, prev_seq)`; prev_seq is null on the owner's
 * first write. `source` must come after everything the write waits on that another write of the
 * owner may hold (e.g. the idempotency key), or the two would deadlock.
 *
 * `FOR UPDATE` waits for a concurrent write of the owner to commit and then returns the row it
 * committed, so `prev_seq` is the owner's latest seq; the seq is drawn once, after that, and the
 * UPDATE only stores values already drawn (an UPDATE that drew in its SET would draw again when it
 * finds the row changed under it, leaving gaps). The INSERT runs only on the owner's first write;
 * two first writes meet on the primary key, and the second takes the DO UPDATE path once the first
 * commits.
 */
export const ownerHeadCtes = (source: SQL): SQL => sql`
  head_src AS (${source}),
  head_lock AS (
    SELECT oh.owner, oh.last_seq AS prev_seq FROM owner_heads oh JOIN head_src ON oh.owner = head_src.owner
    FOR UPDATE OF oh),
  head_next AS (SELECT owner, prev_seq, nextval('history_seq') AS seq FROM head_lock),
  head_upd AS (
    UPDATE owner_heads oh SET prev_seq = n.prev_seq, last_seq = n.seq
    FROM head_next n WHERE oh.owner = n.owner
    RETURNING n.seq, n.prev_seq),
  head_new AS (
    INSERT INTO owner_heads AS oh (owner, last_seq)
    SELECT head_src.owner, nextval('history_seq') FROM head_src WHERE NOT EXISTS (SELECT 1 FROM head_lock)
    ON CONFLICT (owner) DO UPDATE SET prev_seq = oh.last_seq, last_seq = nextval('history_seq')
    RETURNING oh.last_seq AS seq, oh.prev_seq),
  s AS (SELECT seq, prev_seq FROM head_upd UNION ALL SELECT seq, prev_seq FROM head_new)`;

/**
 * ownerHeadCtes for several writes of distinct owners in one statement (store/combined-write-statement.ts):
 * the same steps, each keyed by owner, ending in `s (owner, seq, prev_seq)`. The head rows are locked
 * in owner order, so two such statements that share owners (two API replicas) wait for each other
 * here instead of deadlocking.
 */
export const ownersHeadCtes = (source: SQL): SQL => sql`
  head_src AS (${source}),
  head_lock AS (
    SELECT oh.owner, oh.last_seq AS prev_seq FROM owner_heads oh JOIN head_src ON oh.owner = head_src.owner
    ORDER BY oh.owner FOR UPDATE OF oh),
  head_next AS (SELECT owner, prev_seq, nextval('history_seq') AS seq FROM head_lock),
  head_upd AS (
    UPDATE owner_heads oh SET prev_seq = n.prev_seq, last_seq = n.seq
    FROM head_next n WHERE oh.owner = n.owner
    RETURNING n.owner, n.seq, n.prev_seq),
  head_new AS (
    INSERT INTO owner_heads AS oh (owner, last_seq)
    SELECT head_src.owner, nextval('history_seq') FROM head_src
    WHERE NOT EXISTS (SELECT 1 FROM head_lock l WHERE l.owner = head_src.owner)
    ON CONFLICT (owner) DO UPDATE SET prev_seq = oh.last_seq, last_seq = nextval('history_seq')
    RETURNING oh.owner, oh.last_seq AS seq, oh.prev_seq),
  s AS (SELECT owner, seq, prev_seq FROM head_upd UNION ALL SELECT owner, seq, prev_seq FROM head_new)`;
