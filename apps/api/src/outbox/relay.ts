import { headers as natsHeaders } from "nats";
import { sql } from "drizzle-orm";
import { rowsOf, type Database, type Executor } from "../db/database.ts";
import type { NatsLink } from "../nats/connect.ts";
import { parkedOwners, parkRow } from "./parked.ts";
import { isPermanentPublishError, prepareMessage } from "./prepare.ts";

/** One relay at a time publishes, which keeps the stream in seq order across replicas. */
const RELAY_LOCK_KEY = 0x63_72_75_6d_62_72n; // "crumbr"

export interface RelayOptions {
  database: Database;
  nats: NatsLink;
  batchSize?: number;
  /** Fallback poll for rows nobody kicked for (e.g. written while NATS was down on another replica). */
  pollMs?: number;
  publishTimeoutMs?: number;
  onPublished?(count: number): void;
  /** Rows moved to the dead-letter table (outbox_parked). */
  onParked?(count: number): void;
  log?(msg: string): void;
}

interface OutboxRow {
  seq: string;
  subject: string;
  msg_id: string;
  payload: unknown;
}

/**
 * Drains the outbox into JetStream in seq order. Rows are marked published in
 * the same transaction, after the publish acks; a crash between ack and commit
 * republishes, and `Nats-Msg-Id` dedup makes that harmless. No row can stall
 * the relay: an event larger than the server's max_payload goes out as its
 * reference event, and a row that can never be published is parked
 * (outbox_parked) with the later rows of its owner, while other owners flow.
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private cleanups: (() => unknown)[] = [];
  private readonly batchSize: number;

  constructor(private readonly opts: RelayOptions) {
    this.batchSize = opts.batchSize ?? 200;
  }

  async start(): Promise<void> {
    this.cleanups.push(this.opts.nats.onReconnect(() => this.kick()));
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1_000);
    this.timer.unref();
    this.kick();
  }

  /** Cheap and coalescing: call after every commit. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    for (const c of this.cleanups.splice(0)) await c();
    await this.running;
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.again = false;
      let outcome: Outcome;
      try {
        outcome = await this.drainBatch();
      } catch (err) {
        this.opts.log?.(`outbox relay: ${String(err)}`);
        outcome = "failed";
      }
      if (this.stopped) return;
      if (outcome === "failed") {
        this.failures++;
        this.retryLater(Math.min(50 * 2 ** this.failures, 5_000));
        return;
      }
      this.failures = 0;
      if (outcome === "busy") {
        this.retryLater(25);
        return;
      }
      if (outcome === "idle" && !this.again) return;
    }
  }

  private retryLater(ms: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.kick(), ms);
    this.retryTimer.unref();
  }

  private async drainBatch(): Promise<Outcome> {
    // While disconnected the client would buffer publishes and time out; wait for the reconnect kick.
    if (!this.opts.nats.connected()) return "idle";
    const { db } = this.opts.database;
    return db.transaction(async (tx) => {
      const [lock] = rowsOf<{ ok: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(${RELAY_LOCK_KEY.toString()}::bigint) as ok`),
      );
      if (!lock?.ok) return "busy";
      const rows = rowsOf<OutboxRow>(
        await tx.execute(sql`
          select seq::text as seq, subject, msg_id, payload from outbox
          where published_at is null order by outbox.seq limit ${this.batchSize}
          for update skip locked`),
      );
      if (rows.length === 0) return "idle";
      const { send, parked } = await this.sort(tx, rows);
      for (const p of parked) await this.park(tx, p.row, p.owner, p.reason);
      // After a failure, one batch goes one at a time (always makes progress); otherwise pipelined.
      const { done, failure } = this.failures > 0 ? await this.publishInTurn(send) : await this.publishPipelined(send);
      if (done > 0) {
        const seqs = JSON.stringify(send.slice(0, done).map((m) => Number(m.row.seq)));
        await tx.execute(sql`
          update outbox set published_at = now()
          where seq in (select jsonb_array_elements_text(${seqs}::jsonb)::bigint)`);
        this.opts.onPublished?.(done);
      }
      if (failure !== undefined) {
        const failed = send[done]!;
        if (!isPermanentPublishError(failure)) {
          this.opts.log?.(`outbox relay: publish failed, will retry: ${String(failure)}`);
          return "failed";
        }
        // The rows after it were refused only because it is missing: the next batch sends them.
        await this.park(tx, failed.row, failed.owner, `publish refused: ${String(failure)}`);
        return "more";
      }
      return rows.length === this.batchSize || parked.length > 0 ? "more" : "idle";
    });
  }

  /**
   * Splits a batch into what goes out (the event, or its reference event when
   * only that fits max_payload) and what parks: rows nothing can be published
   * for, and rows of an owner with an earlier parked row (held, so that the
   * owner's order holds once they are retried).
   */
  private async sort(tx: Executor, rows: OutboxRow[]) {
    const heldFrom = await parkedOwners(tx);
    const maxPayload = this.opts.nats.maxPayload();
    const send: Outgoing[] = [];
    const parked: { row: OutboxRow; owner: string; reason: string }[] = [];
    for (const row of rows) {
      const p = prepareMessage(row, maxPayload);
      const held = heldFrom.get(p.owner);
      if (held !== undefined && held < Number(row.seq)) {
        parked.push({ row, owner: p.owner, reason: `held behind parked seq ${held} of owner ${p.owner}` });
      } else if (p.kind === "park") {
        parked.push({ row, owner: p.owner, reason: p.reason });
        heldFrom.set(p.owner, Number(row.seq));
      } else {
        send.push({ row, owner: p.owner, data: p.data });
      }
    }
    return { send, parked };
  }

  private async park(tx: Executor, row: OutboxRow, owner: string, reason: string): Promise<void> {
    await parkRow(tx, row.seq, owner, reason);
    this.opts.onParked?.(1);
    this.opts.log?.(`outbox relay: parked seq ${row.seq} (${row.subject}): ${reason}`);
  }

  /**
   * All rows in flight at once, in seq order on one connection (JetStream stores one
   * connection's publishes in the order sent). Each row but the first expects the
   * stream's last message to be the row before it, so if a row is rejected, every
   * row after it is rejected too: nothing can land ahead of a gap. The first row
   * needs no check, every row before it is acked already. Only the acked prefix is
   * marked; the rest is retried, and Nats-Msg-Id dedup makes republishing harmless.
   */
  private async publishPipelined(rows: Outgoing[]): Promise<Published> {
    const acks = await Promise.allSettled(rows.map((m, i) => this.publish(m, rows[i - 1]?.row.msg_id)));
    const firstFailed = acks.findIndex((a) => a.status === "rejected");
    if (firstFailed === -1) return { done: rows.length };
    return { done: firstFailed, failure: (acks[firstFailed] as PromiseRejectedResult).reason };
  }

  /** One at a time, each acked before the next: the careful path after a failure. */
  private async publishInTurn(rows: Outgoing[]): Promise<Published> {
    let done = 0;
    for (const m of rows) {
      try {
        await this.publish(m);
        done++;
      } catch (failure) {
        return { done, failure };
      }
    }
    return { done };
  }

  private async publish(m: Outgoing, previousMsgId?: string): Promise<void> {
    const h = natsHeaders();
    h.set("Content-Type", "application/json");
    await this.opts.nats.js.publish(m.row.subject, m.data, {
      msgID: m.row.msg_id,
      headers: h,
      timeout: this.opts.publishTimeoutMs ?? 3_000,
      ...(previousMsgId !== undefined ? { expect: { lastMsgID: previousMsgId } } : {}),
    });
  }

  /** Rows committed but not yet published (the backlog gauge). */
  async backlog(): Promise<number> {
    const [row] = rowsOf<{ n: string }>(
      await this.opts.database.db.execute(sql`select count(*)::text as n from outbox where published_at is null`),
    );
    return Number(row?.n ?? 0);
  }
}

type Outcome = "idle" | "more" | "busy" | "failed";

interface Outgoing {
  row: OutboxRow;
  owner: string;
  data: Uint8Array;
}

interface Published {
  /** Rows acked, a prefix of the batch. */
  done: number;
  failure?: unknown;
}
