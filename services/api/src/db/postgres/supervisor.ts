import type { Logger } from "@crumbs/telemetry";
import postgres, { type Sql, type TransactionSql } from "postgres";
import { DatabaseConnectionError, QueryDeadlineError, asServiceError, isConnectionFailure } from "./connection-errors.ts";
import { LazyQuery, withDeadline } from "./lazy-query.ts";

export interface SupervisorOptions {
  databaseUrl: string;
  maxConnections: number;
  /** Client-side bound on one query (covers a connection that never answers). */
  queryTimeoutMs: number;
  /** Client-side bound on a whole transaction, app code included. */
  transactionTimeoutMs: number;
  /** Server-side statement_timeout: a slow statement is cancelled before our deadline retires the client. */
  statementTimeoutMs: number;
  log: Logger;
}

/** One postgres-js client and everything built on it; retired whole, never repaired. */
interface Generation {
  client: Sql;
  retiring?: Promise<void>;
}

interface Listener {
  channel: string;
  onNotify: () => void;
  gen?: Generation;
  unlisten?: () => Promise<void>;
}

interface TxState {
  /** The transaction's connection closed: nothing may be written to it any more. */
  dead: boolean;
}

type Callback = (client: unknown) => unknown;

const RELISTEN_DELAY_MS = 500;
const RETIRE_WAIT_MS = 1_000;

/**
 * Supervises the postgres-js client under drizzle, because postgres-js 3.4.9
 * does not survive a server restart on its own: a connection whose socket
 * closed with a write queued keeps `nextWriteTimer` set and hangs every later
 * query, and a write queued on a closed socket throws an uncaught TypeError
 * from `nextWrite` (porsager/postgres#1154, #1208; open fixes #1168, #1209).
 *
 * So: every query has a deadline; on any connection-class failure the whole
 * client is ended (`end({timeout: 0})`, which rejects everything pending on
 * it) and the next query lazily opens a fresh one; nothing poisoned is reused.
 * drizzle is built once on `client`, a stable facade whose `unsafe`/`begin`
 * resolve the live client per call, so references captured at startup
 * (`database.db`) follow the swaps.
 */
export class PostgresSupervisor {
  /**
   * drizzle writes its parsers/serializers here; each new client gets a copy. `max` is the pool's size,
   * as postgres-js's own options have it (the store's write combiner reads it: store/combined-write-statement.ts).
   */
  private readonly driverOptions = { parsers: {} as Record<string, unknown>, serializers: {} as Record<string, unknown>, max: 0 };
  private gen?: Generation;
  private readonly retiring = new Set<Promise<void>>();
  private readonly listeners = new Set<Listener>();
  private relistenTimer?: NodeJS.Timeout;
  private degraded = false;
  private closed = false;

  /** What drizzle is given as its postgres-js client. */
  readonly client = {
    options: this.driverOptions,
    unsafe: (query: string, params?: unknown[], opts?: object) =>
      new LazyQuery(async (values, raw) => {
        const gen = this.current();
        return this.run(gen, () => {
          const q = gen.client.unsafe(query, params as never, opts);
          return values ? q.values() : raw ? q.raw() : q;
        });
      }),
    begin: async (cb: Callback) => this.begin(cb),
  };

  constructor(private readonly opts: SupervisorOptions) {
    this.driverOptions.max = opts.maxConnections;
  }

  /** Retires the live client (the process guard calls this after the driver's uncaught TypeError). */
  recover(reason: unknown): void {
    if (this.gen) void this.retire(this.gen, reason);
  }

  async listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    const l: Listener = { channel, onNotify };
    await this.attach(l, this.current());
    this.listeners.add(l);
    return async () => {
      this.listeners.delete(l);
      await l.unlisten?.().catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relistenTimer);
    const gen = this.gen;
    this.gen = undefined;
    await gen?.client.end({ timeout: 5 });
    await Promise.all(this.retiring);
  }

  private current(): Generation {
    if (this.closed) throw new DatabaseConnectionError("CONNECTION_ENDED", "the database is closed");
    this.gen ??= this.spawn();
    return this.gen;
  }

  private spawn(): Generation {
    const client = postgres(this.opts.databaseUrl, {
      max: this.opts.maxConnections,
      onnotice: () => {},
      connect_timeout: 5,
      idle_timeout: 60,
      max_lifetime: 30 * 60,
      connection: {
        statement_timeout: this.opts.statementTimeoutMs,
        // A transaction left open by a stuck client must not hold row locks forever.
        idle_in_transaction_session_timeout: this.opts.transactionTimeoutMs,
      },
    });
    Object.assign(client.options.parsers, this.driverOptions.parsers);
    Object.assign(client.options.serializers, this.driverOptions.serializers);
    return { client };
  }

  /** Runs one driver call on `gen` with a deadline; a connection-class failure retires `gen`. */
  private async run<T>(gen: Generation, op: () => PromiseLike<T>, ms = this.opts.queryTimeoutMs): Promise<T> {
    try {
      const result = await withDeadline(op, ms, () => new QueryDeadlineError(ms));
      this.succeeded(gen);
      return result;
    } catch (err) {
      if (isConnectionFailure(err)) void this.retire(gen, err);
      throw asServiceError(err);
    }
  }

  private begin(cb: Callback): Promise<unknown> {
    const gen = this.current();
    const state: TxState = { dead: false };
    return this.run(
      gen,
      () => {
        const tx = gen.client.begin((sql) => this.scope(gen, state, sql, cb));
        // postgres-js rejects `begin` as soon as the reserved connection closes, before the callback settles.
        tx.catch(() => (state.dead = true));
        return tx;
      },
      this.opts.transactionTimeoutMs,
    );
  }

  /**
   * The transaction body. On a connection failure the client is ended BEFORE
   * the error reaches postgres-js, whose next step is `rollback` on the same
   * connection: ended, it refuses the write (CONNECTION_DESTROYED) instead of
   * queueing it on a null socket (the #1154 TypeError and the stuck timer).
   */
  private async scope(gen: Generation, state: TxState, sql: TransactionSql, cb: Callback): Promise<unknown> {
    try {
      return await cb(this.txClient(gen, state, sql));
    } catch (err) {
      if (state.dead || gen.retiring || isConnectionFailure(err)) {
        state.dead = true;
        await this.retire(gen, err);
      }
      throw err;
    }
  }

  /** The facade drizzle's transaction session gets: same bounds, and no query once the connection is gone. */
  private txClient(gen: Generation, state: TxState, sql: TransactionSql) {
    const refuseIfDead = () => {
      if (state.dead || gen.retiring) {
        throw new DatabaseConnectionError("CONNECTION_CLOSED", "the transaction's connection closed");
      }
    };
    return {
      unsafe: (query: string, params?: unknown[], opts?: object) =>
        new LazyQuery((values, raw) =>
          this.run(gen, () => {
            refuseIfDead();
            const q = sql.unsafe(query, params as never, opts);
            return values ? q.values() : raw ? q.raw() : q;
          }),
        ),
      savepoint: async (cb: Callback) => {
        refuseIfDead();
        return sql.savepoint((sp) => this.scope(gen, state, sp, cb));
      },
    };
  }

  private succeeded(gen: Generation): void {
    if (this.degraded && gen === this.gen) {
      this.degraded = false;
      this.opts.log.warn("postgres: reachable again");
    }
  }

  /**
   * The whole output of a `COPY ... TO STDOUT`, on a connection reserved for it and released once
   * the COPY has ended. It is always read to its end: postgres-js's cancel does not stop a COPY, and
   * a reader that stops early leaves the connection in copy mode for good, its backend blocked
   * writing (bench/results/45). So a caller bounds what one COPY sends (a step of a streamed answer:
   * 1,000 rows, a third of a page's bytes) and stops by not asking for the next. Same deadline and
   * failure handling as any query: a COPY that never ends retires the client.
   */
  copyOut(statement: string): Promise<Buffer> {
    const gen = this.current();
    return this.run(gen, async () => {
      const reserved = await gen.client.reserve();
      try {
        const stream = await reserved.unsafe(statement).readable();
        // Taken as it comes ('data'), never through the stream's async iterator: postgres-js pauses
        // the connection's socket when a row finds the stream's buffer full and resumes it only when
        // the stream asks for more, so a COPY that ends with rows still buffered leaves the socket
        // paused, and the next query on that connection never answers (the 2nd to 5th COPY of 1.3 MB
        // on a reused connection hung that way). Flowing, a row is handed over as it is pushed and
        // the buffer never fills.
        return await new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.once("end", () => resolve(Buffer.concat(chunks)));
          stream.once("error", reject);
        });
      } finally {
        reserved.release();
      }
    });
  }

  /** Ends `gen` (once), so the next query opens a fresh client. Resolves when its connections are terminated. */
  private retire(gen: Generation, reason: unknown): Promise<void> {
    if (gen.retiring) return gen.retiring;
    if (this.gen === gen) this.gen = undefined;
    if (!this.degraded) this.opts.log.error({ err: reason }, "postgres: connection failed, reconnecting with a fresh client");
    this.degraded = true;
    const ended = gen.client.end({ timeout: 0 }).catch(() => {});
    const bounded = new Promise<void>((resolve) => setTimeout(resolve, RETIRE_WAIT_MS).unref());
    const retiring = Promise.race([ended, bounded]).finally(() => this.retiring.delete(retiring));
    gen.retiring = retiring;
    this.retiring.add(retiring);
    this.scheduleRelisten();
    return retiring;
  }

  private async attach(l: Listener, gen: Generation): Promise<void> {
    const sub = await this.run(gen, () => gen.client.listen(l.channel, () => l.onNotify()));
    l.gen = gen;
    l.unlisten = () => sub.unlisten();
  }

  /** LISTEN lives on the client: after a swap, subscribe again on the new one (the relay also polls meanwhile). */
  private scheduleRelisten(): void {
    if (this.closed || this.relistenTimer || this.listeners.size === 0) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      if (this.closed) return;
      const gen = this.current();
      for (const l of this.listeners) {
        if (l.gen === gen) continue;
        this.attach(l, gen).then(
          () => (this.listeners.has(l) ? undefined : l.unlisten?.().catch(() => {})),
          () => this.scheduleRelisten(),
        );
      }
    }, RELISTEN_DELAY_MS);
    this.relistenTimer.unref();
  }
}
