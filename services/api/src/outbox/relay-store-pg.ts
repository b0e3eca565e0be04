import postgres from "postgres";
import { isConnectionFailure, QueryDeadlineError } from "../db/postgres/connection-errors.ts";
import { withDeadline } from "../db/postgres/lazy-query.ts";
import type { RelayBatch, RelayStore } from "./relay-store.ts";
import * as statements from "./relay-statements.ts";

export interface PgRelayStoreOptions {
  databaseUrl: string;
  /** Bound on each round trip; past it the connection is dropped and the next batch opens a fresh one. */
  queryTimeoutMs?: number;
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
    const closing: Promise<unknown>[] = [];
    try {
      const run = (s: statements.Statement) => sql.unsafe<statements.ReadRow[]>(s.text, s.params as postgres.ParameterOrJSON<never>[], { prepare: true });
      const [, heads] = await this.bounded(Promise.all([sql`begin`, run(statements.readLocking(limit))]));
      const first = heads[0];
      if (!first?.ok) {
        await this.bounded(sql`commit`);
        return "busy";
      }
      const pid = first.pid;
      const result = await fn({
        ...statements.batchOf(heads),
        readMore: async (n, excluding) => statements.batchOf(await this.bounded(run(statements.readMore(pid, n, excluding)))),
        park: async (parked) => void closing.push(run(statements.park(pid, parked))),
        deletePublished: async (seqs) => void closing.push(run(statements.deletePublished(pid, seqs))),
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
