import postgres from "postgres";
import { isConnectionFailure, QueryDeadlineError } from "../db/postgres/connection-errors.ts";
import { withDeadline } from "../db/postgres/lazy-query.ts";
import type { OutboxRow, ToPark } from "./batch.ts";
import { RELAY_LOCK_KEY, type RelayBatch, type RelayStore } from "./relay-store.ts";

export interface PgRelayStoreOptions {
  databaseUrl: string;
  /** Bound on each round trip; past it the connection is dropped and the next batch opens a fresh one. */
  queryTimeoutMs?: number;
}

interface Head {
  ok: boolean;
  /** The connection's backend: the closing statements only act on the connection that holds the lock. */
  pid: number;
  held: Record<string, string> | null;
  seq: string | null;
  subject: string | null;
  msg_id: string | null;
  payload: string | null;
  waited_ms: number | null;
}

/**
 * The relay's own postgres-js connection (one: the relay is sequential), with
 * prepared statements and pipelining, so a batch costs two round trips: BEGIN and
 * one statement that takes the lock and reads the rows with the parked owners,
 * then parks, deletes and COMMIT sent together (asynchronous commit, see client()),
 * plus one for each read of rows committed while it waited for acks. drizzle would
 * send each step as an unnamed statement, which postgres-js describes first: two
 * round trips each.
 *
 * A transaction on a `max: 1` client spans separate queries; should the
 * connection drop in between, postgres-js reconnects and the closing statements
 * would run outside the transaction, so they are guarded by the backend pid the
 * batch was read on: on another connection they do nothing and the rows are
 * published again (Nats-Msg-Id dedup).
 */
export class PgRelayStore implements RelayStore {
  private sql: postgres.Sql | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly opts: PgRelayStoreOptions) {
    this.timeoutMs = opts.queryTimeoutMs ?? 15_000;
  }

  private client(): postgres.Sql {
    this.sql ??= postgres(this.opts.databaseUrl, {
      max: 1,
      // A transaction spans several queries of this one connection: it must not be recycled in between.
      max_lifetime: null,
      idle_timeout: 0,
      connect_timeout: 5,
      onnotice: () => {},
      // The relay's commits need not wait for the WAL flush: this connection only deletes rows
      // JetStream acked, and a delete lost in a crash only republishes rows that Nats-Msg-Id dedup
      // drops. Set for the session rather than per batch, which saved a statement per batch.
      connection: { application_name: "crumbs-relay", statement_timeout: 10_000, synchronous_commit: "off" },
    });
    return this.sql;
  }

  async batch<T>(limit: number, fn: (b: RelayBatch) => Promise<T>): Promise<T | "busy"> {
    const sql = this.client();
    const closing: postgres.PendingQuery<postgres.Row[]>[] = [];
    try {
      const begin = sql`begin`;
      const read = readStatement(sql, limit, []);
      const [, heads] = await this.bounded(Promise.all([begin, read]));
      const first = heads[0];
      if (!first?.ok) {
        await this.bounded(sql`commit`);
        return "busy";
      }
      const pid = first.pid;
      const result = await fn({
        ...batchOf(heads),
        readMore: async (n, excluding) => batchOf(await this.bounded(readStatement(sql, n, excluding, pid))),
        park: async (parked) => void closing.push(parkStatement(sql, parked, pid)),
        deletePublished: async (seqs) => void closing.push(deleteStatement(sql, seqs, pid)),
      });
      await this.bounded(Promise.all([...closing, sql`commit`]));
      return result;
    } catch (err) {
      await this.failed(sql, err);
      throw err;
    }
  }

  private bounded<R>(p: Promise<R>): Promise<R> {
    return withDeadline(() => p, this.timeoutMs, () => new QueryDeadlineError(this.timeoutMs));
  }

  /** Rolls back; after a connection failure the client is ended whole and the next batch opens a fresh one. */
  private async failed(sql: postgres.Sql, err: unknown): Promise<void> {
    if (isConnectionFailure(err)) {
      if (this.sql === sql) this.sql = undefined;
      await sql.end({ timeout: 0 }).catch(() => {});
      return;
    }
    await this.bounded(sql`rollback`).catch(async () => {
      if (this.sql === sql) this.sql = undefined;
      await sql.end({ timeout: 0 }).catch(() => {});
    });
  }

  async close(): Promise<void> {
    const sql = this.sql;
    this.sql = undefined;
    await sql?.end({ timeout: 5 });
  }
}

/**
 * The oldest outbox rows but `excluding`, with the parked owners. The batch's first read takes the
 * relay lock (`ok` says whether it got it); a later read in the same transaction (`pid` given) reads
 * only on the connection that holds it, and nothing on another.
 */
function readStatement(sql: postgres.Sql, limit: number, excluding: readonly string[], pid?: number) {
  const ok =
    pid === undefined
      ? sql`select pg_try_advisory_xact_lock(${RELAY_LOCK_KEY.toString()}::bigint)`
      : sql`select pg_backend_pid() = ${pid}::int`;
  return sql<Head[]>`
    with lock as (${ok} as ok),
    batch as (
      select seq, subject, msg_id, payload, created_at from outbox
      where (select ok from lock) and seq <> all(string_to_array(${excluding.join(",")}, ',')::bigint[])
      order by seq limit ${limit}),
    held as (
      select jsonb_object_agg(owner, seq::text) as held
      from (select owner, min(seq) as seq from outbox_parked group by owner) p
      where exists (select 1 from batch))
    select (select ok from lock) as ok, pg_backend_pid() as pid, (select held from held) as held,
           r.seq::text as seq, r.subject, r.msg_id, r.payload::text as payload,
           (extract(epoch from clock_timestamp() - r.created_at) * 1000)::float8 as waited_ms
    from (select 1) one left join batch r on true
    order by r.seq`;
}

/** The rows and the parked owners of a read: one result row per outbox row, or one of nulls when there are none. */
function batchOf(heads: readonly Head[]): { rows: OutboxRow[]; heldFrom: Map<string, number> } {
  const rows: OutboxRow[] = heads
    .filter((h) => h.seq !== null)
    .map((h) => ({ seq: h.seq!, subject: h.subject!, msg_id: h.msg_id!, payload: h.payload!, waited_ms: h.waited_ms! }));
  const heldFrom = new Map(Object.entries(heads[0]?.held ?? {}).map(([owner, seq]) => [owner, Number(seq)]));
  return { rows, heldFrom };
}

function parkStatement(sql: postgres.Sql, parked: readonly ToPark[], pid: number) {
  const items = JSON.stringify(parked.map((p) => ({ seq: p.row.seq, owner: p.owner, reason: p.reason.slice(0, 1_000) })));
  return sql`
    with p as (select * from jsonb_to_recordset(${items}::text::jsonb) as x(seq bigint, owner text, reason text)),
    moved as (
      delete from outbox o using p where o.seq = p.seq and pg_backend_pid() = ${pid}::int
      returning o.seq, o.subject, o.msg_id, o.payload, o.created_at)
    insert into outbox_parked (seq, owner, subject, msg_id, payload, reason, created_at)
    select m.seq, p.owner, m.subject, m.msg_id, m.payload, p.reason, m.created_at from moved m join p on p.seq = m.seq`;
}

function deleteStatement(sql: postgres.Sql, seqs: readonly string[], pid: number) {
  return sql`
    delete from outbox
    where seq = any(string_to_array(${seqs.join(",")}, ',')::bigint[]) and pg_backend_pid() = ${pid}::int`;
}
