import type { Logger } from "@crumbs/telemetry";
import { setImmediate } from "node:timers/promises";
import type { NatsLink } from "../nats/connect.ts";
import { JetStreamPublisher } from "../nats/publisher.ts";
import type { CommittedEvent } from "../store/committed-event.ts";
import { splitBatch, type Outgoing, type ToPark } from "./batch.ts";
import { MemoryEvents } from "./memory-events.ts";
import { PipelinedRun } from "./pipelined-run.ts";
import { isPermanentPublishError } from "./prepare.ts";
import type { RelayBatch, RelayStore } from "./relay-store.ts";
import { RelayWake, type CommitLatch } from "./relay-wake.ts";

export interface RelayOptions {
  store: RelayStore;
  nats: NatsLink;
  batchSize?: number;
  /** Fallback poll for rows nobody kicked for (e.g. written while NATS was down on another replica). */
  pollMs?: number;
  /** How long a publish waits for its ack (default 3 s, JetStreamPublisher's). */
  publishTimeoutMs?: number;
  /** Also feed the owners' NATS accounts (with CRUMBS_NATS_ACCOUNT_SEED; nats-auth/owner-feed.ts). */
  ownerFeed?: boolean;
  /**
   * How long a batch whose publishes are all acked stays open for the next event handed over in
   * memory (default 10 ms), and how long a batch may stay open in all (default 50 ms): its
   * transaction holds the relay lock, and its deletes wait for its commit.
   */
  lingerMs?: number;
  maxBatchMs?: number;
  /** How long handed-over events wait for their owner's previous one before the batch reads the outbox (default 3 ms). */
  gapWaitMs?: number;
  /** Events published, once their batch committed: each one's delay in ms from its write to JetStream's ack. */
  onPublished?(delaysMs: readonly number[], fromMemory: number): void;
  /** Rows moved to the dead-letter table (outbox_parked). */
  onParked?(count: number): void;
  log?: Logger;
  /** Commits seen from another thread (relay-worker.ts): each batch resets it, an idle relay asks it before it sleeps. */
  commits?: CommitLatch;
}

/**
 * Drains the outbox into JetStream in seq order. Rows are deleted in the same
 * transaction, after the publish acks; a crash between ack and commit
 * republishes, and `Nats-Msg-Id` dedup makes that harmless. No row can stall
 * the relay: an event larger than the server's max_payload goes out as its
 * reference event, and a row that can never be published is parked
 * (outbox_parked) with the later rows of its owner, while other owners flow.
 *
 * The process that commits a write also hands its event over (offer), and a batch that is open
 * publishes it from memory, with no read, when it follows its owner's last one (MemoryEvents).
 * So that this is the usual case, a batch whose publishes are acked stays open for a little while
 * (lingerMs) for the next event: at a steady rate, a run of events shares one read, one delete
 * and one commit, and each event costs no Postgres round trip of its own.
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private readonly wake: RelayWake;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private cleanups: (() => unknown)[] = [];
  private readonly batchSize: number;
  private readonly memory = new MemoryEvents();
  private publisher: JetStreamPublisher | undefined;

  constructor(private readonly opts: RelayOptions) {
    this.batchSize = opts.batchSize ?? 200;
    const times = { lingerMs: opts.lingerMs ?? 10, maxBatchMs: opts.maxBatchMs ?? 50, gapWaitMs: opts.gapWaitMs ?? 3 };
    this.wake = new RelayWake(times, opts.commits);
  }

  /** An event this process just committed (a kick too). Dropping one is harmless: the outbox has it. */
  offer(event: CommittedEvent): void {
    if (this.stopped) return;
    this.memory.offer(event);
    this.wakeUp();
  }

  async start(): Promise<void> {
    this.publisher = new JetStreamPublisher(this.opts.nats.nc, this.opts.publishTimeoutMs, this.opts.ownerFeed);
    this.cleanups.push(this.opts.nats.onReconnect(() => this.kick()));
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1_000);
    this.timer.unref();
    this.kick();
  }

  /** Cheap and coalescing: call after every commit that handed no event over (offer). */
  kick(): void {
    if (this.stopped) return;
    this.wake.kickRead();
    this.wakeUp();
  }

  private wakeUp(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wake.notify();
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
    // After the last batch: closing rejects what still waits for an ack.
    this.publisher?.close();
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.wake.beginLook();
      let outcome: Outcome;
      try {
        outcome = await this.drainBatch();
      } catch (err) {
        this.opts.log?.warn({ err }, "outbox relay failed");
        outcome = "failed";
      }
      if (this.stopped) return;
      if (outcome === "failed") {
        this.memory.reset();
        this.failures++;
        this.retryLater(Math.min(50 * 2 ** this.failures, 5_000));
        return;
      }
      this.failures = 0;
      if (outcome === "busy") {
        this.retryLater(25);
        return;
      }
      if (outcome === "idle" && this.wake.quiet()) return;
    }
  }

  private retryLater(ms: number): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.kick(), ms);
    this.retryTimer.unref();
  }

  private async drainBatch(): Promise<Outcome> {
    // The events handed over so far committed before the read begins, so the read has them (or they
    // were published already; or the relay lock's holder, when it is busy, publishes them); and the
    // read answers every kick so far. Events handed over while it runs stay queued.
    this.memory.dropFirst(this.memory.queued());
    this.wake.readStarted();
    // While disconnected the client would buffer publishes and time out; wait for the reconnect kick.
    if (!this.opts.nats.connected()) return "idle";
    const result = await this.opts.store.batch(this.batchSize, (batch) => this.publishBatch(batch));
    if (result === "busy") return "busy";
    // Counted once the batch committed: deletes and parks take effect with the commit, and a batch
    // whose commit fails is published again by the next one, and counted then.
    if (result.published.length > 0) this.opts.onPublished?.(result.published, result.fromMemory);
    if (result.parked > 0) this.opts.onParked?.(result.parked);
    return result.outcome;
  }

  private async publishBatch(batch: RelayBatch): Promise<BatchResult> {
    if (batch.rows.length === 0) return { outcome: "idle", published: [], fromMemory: 0, parked: 0 };
    // After a failure, one batch goes one at a time (always makes progress); otherwise pipelined.
    const sent = this.failures > 0 ? await this.sendInTurn(batch) : await this.sendPipelined(batch);
    const { send, ackedAt, failure } = sent;
    const done = ackedAt.length;
    if (done > 0) await batch.deletePublished(send.slice(0, done).map((m) => m.row.seq));
    // The wait before the read is Postgres's clock, the rest this thread's: no two clocks are compared.
    const published = ackedAt.map((at, i) => Number(send[i]!.row.waited_ms) + (at - sent.readAt(i)));
    const fromMemory = send.slice(0, done).filter((m) => m.row.handed).length;
    // What was sent after a refusal is not in the stream: the outbox, not memory, knows what is next.
    if (failure !== undefined) this.memory.reset();
    if (failure === undefined) return { outcome: sent.full || sent.parked > 0 ? "more" : "idle", published, fromMemory, parked: sent.parked };
    if (!isPermanentPublishError(failure)) {
      this.opts.log?.warn({ err: failure }, "outbox relay: publish failed, will retry");
      return { outcome: "failed", published, fromMemory, parked: sent.parked };
    }
    // The rows after it were refused only because it is missing: the next batch sends them.
    const failed = send[done]!;
    await this.park(batch, [{ row: failed.row, owner: failed.owner, reason: `publish refused: ${String(failure)}` }]);
    return { outcome: "more", published, fromMemory, parked: sent.parked + 1 };
  }

  /**
   * Every row in flight at once; rows committed while the acks are awaited, or while the batch
   * lingers after them, join the batch: from memory when they follow their owners' last sent
   * rows, else read from the outbox.
   */
  private async sendPipelined(batch: RelayBatch): Promise<Sent> {
    const run = new PipelinedRun(batch.heldFrom, this.opts.nats.maxPayload());
    const openedAt = performance.now();
    /** Since when handed-over events wait for their owner's previous one. */
    let waitingSince: number | undefined;
    let read = batch.rows;
    for (;;) {
      const before = run.sent().length;
      const parked = run.add(read, (m, previous) => this.publish(m, previous));
      for (const m of run.sent().slice(before)) this.memory.sent(m.owner, Number(m.row.seq));
      for (const p of parked) this.memory.forget(p.owner);
      if (parked.length > 0) await this.park(batch, parked);
      if (read.length === this.batchSize || run.size() >= this.batchSize) break;
      // Waiting for the acks, a commit may come: its rows go out at once, chained after the ones in
      // flight, instead of after these acks, their deletes and the commit of this batch.
      const woke = await this.wake.nextInBatch(run, openedAt, waitingSince, () => this.stopped);
      if (woke === "done" || run.failed()) break;
      if (woke === "kick") {
        // Every event already posted arrives before the relay looks: commits of one owner answered
        // in the same moment come in one look, whatever order their messages took.
        await setImmediate();
        this.wake.beginLook();
        if (!this.wake.readNeeded()) {
          const { rows, waiting } = this.memory.take((owner) => run.isHeld(owner), Date.now());
          waitingSince = waiting > 0 ? (waitingSince ?? performance.now()) : undefined;
          read = rows;
          continue;
        }
      }
      // A kick that brought no event, or events whose previous one did not come within gapWaitMs:
      // the outbox has them all.
      this.wake.readStarted();
      waitingSince = undefined;
      const handedOver = this.memory.queued();
      const more = await batch.readMore(this.batchSize - run.size(), run.seqs());
      this.memory.dropFirst(handedOver);
      run.addHeld(more.heldFrom);
      read = more.rows;
    }
    const full = read.length === this.batchSize || run.size() >= this.batchSize;
    return { ...(await run.outcome()), send: run.sent(), readAt: (i) => run.readAt(i), full, parked: run.parkedCount() };
  }

  /** The careful path after a failure: one batch as read, each publish acked before the next. */
  private async sendInTurn(batch: RelayBatch): Promise<Sent> {
    const readAt = performance.now();
    const { send, parked } = splitBatch(batch.rows, batch.heldFrom, this.opts.nats.maxPayload());
    if (parked.length > 0) await this.park(batch, parked);
    const ackedAt: number[] = [];
    let failure: unknown;
    for (const m of send) {
      try {
        ackedAt.push(await this.publish(m));
      } catch (err) {
        failure = err;
        break;
      }
    }
    return { send, ackedAt, ...(failure !== undefined ? { failure } : {}), readAt: () => readAt, full: batch.rows.length === this.batchSize, parked: parked.length };
  }

  private async park(batch: RelayBatch, parked: readonly ToPark[]): Promise<void> {
    await batch.park(parked);
    for (const p of parked) this.opts.log?.warn({ seq: p.row.seq, subject: p.row.subject, reason: p.reason }, "outbox relay: parked");
  }

  /** Resolves with the time of the ack (performance.now()). */
  private async publish(m: Outgoing, previousMsgId?: string): Promise<number> {
    await this.publisher!.publish(m.row.subject, m.data, {
      msgId: m.row.msg_id,
      ...(previousMsgId !== undefined ? { expectedLastMsgId: previousMsgId } : {}),
    });
    return performance.now();
  }
}

/**
 * How a batch ended, which decides what the relay does next (loop): "idle" sleeps unless a kick,
 * an event or another thread's commit came meanwhile; "more" runs the next batch at once; "busy"
 * (another relay holds the lock) looks again in 25 ms; "failed" backs off, 100 ms doubling up to
 * 5 s, and forgets the events handed over in memory.
 */
type Outcome = "idle" | "more" | "busy" | "failed";

interface BatchResult {
  outcome: Outcome;
  /** Each published event's delay from its write to its ack, in ms. */
  published: number[];
  /** How many of them were handed over in memory rather than read from the outbox. */
  fromMemory: number;
  parked: number;
}

/** What a batch sent: the acked rows are a prefix of `send`, followed by the first failure if any. */
interface Sent {
  send: readonly Outgoing[];
  /** When each acked row was acked (performance.now()). */
  ackedAt: number[];
  failure?: unknown;
  /** When the read that returned `send[i]` came back. */
  readAt(i: number): number;
  /** The batch read as many rows as it may: more are likely waiting. */
  full: boolean;
  parked: number;
}
