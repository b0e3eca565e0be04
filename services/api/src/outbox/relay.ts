import type { Logger } from "@crumbs/telemetry";
import { setImmediate } from "node:timers/promises";
import type { NatsLink } from "../nats/connect.ts";
import { JetStreamPublisher } from "../nats/publisher.ts";
import type { CommittedEvent } from "../store/committed-event.ts";
import { settleBatch, type BatchResult, type Outgoing, type Sent, type ToPark } from "./batch.ts";
import { MemoryEvents } from "./memory-events.ts";
import { PipelinedRun, sendInTurn } from "./pipelined-run.ts";
import { isPermanentPublishError } from "./prepare.ts";
import { systemClock, type CancelTimer, type RelayClock } from "./relay-clock.ts";
import { INITIAL, ROWS_READ, STOP, step, WAKE, type Outcome, type RelayEffect, type RelayEvent } from "./relay-state.ts";
import type { RelayBatch, RelayStore } from "./relay-store.ts";
import { RelayWake, type CommitLatch } from "./relay-wake.ts";

/** What the API holds of its relay: this one on its event loop, or one in a thread (relay-thread.ts). */
export interface Relay {
  /** Cheap and coalescing: call after every commit that has no event to hand over (offer). */
  kick(): void;
  /** The event a write just committed, for the relay to publish without reading it back; a kick too. */
  offer(event: CommittedEvent): void;
  /** Rows committed but not yet published (the backlog gauge). */
  backlog(): Promise<number>;
  /** Finishes the batch in flight and closes the relay's connections. */
  stop(): Promise<void>;
}

export interface RelayOptions {
  store: RelayStore;
  nats: NatsLink;
  /** Rows committed but not yet published, on the API's database (the relay's own store is busy with batches). */
  backlog?(): Promise<number>;
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
  /** The timers' clock (tests pass relay-clock.fixture.ts's). */
  clock?: RelayClock;
}

/**
 * Drains the outbox into JetStream in seq order. Rows are deleted in the same
 * transaction, after the publish acks; a crash between ack and commit
 * republishes, and `Nats-Msg-Id` dedup makes that harmless. No row can stall
 * the relay: an event larger than the server's max_payload goes out as its
 * reference event, and a row that can never be published is parked
 * (outbox_parked) with the later rows of its owner, while other owners flow.
 *
 * Its states (idle, reading, publishing, waiting for NATS, backing off, ...) and what moves it
 * between them are relay-state.ts's; this class runs the batches and carries out the effects.
 *
 * The process that commits a write also hands its event over (offer), and a batch that is open
 * publishes it from memory, with no read, when it follows its owner's last one (MemoryEvents).
 * So that this is the usual case, a batch whose publishes are acked stays open for a little while
 * (lingerMs) for the next event: at a steady rate, a run of events shares one read, one delete
 * and one commit, and each event costs no Postgres round trip of its own.
 */
export class OutboxRelay implements Relay {
  private state = INITIAL;
  private readonly wake: RelayWake;
  private readonly clock: RelayClock;
  private cancelPoll: CancelTimer | undefined;
  private cancelWake: CancelTimer | undefined;
  private cleanups: (() => unknown)[] = [];
  private readonly batchSize: number;
  private readonly memory = new MemoryEvents();
  private publisher: JetStreamPublisher | undefined;
  private closed: Promise<void> | undefined;
  private markClosed: () => void = () => {};

  constructor(private readonly opts: RelayOptions) {
    this.batchSize = opts.batchSize ?? 200;
    this.clock = opts.clock ?? systemClock;
    const times = { lingerMs: opts.lingerMs ?? 10, maxBatchMs: opts.maxBatchMs ?? 50, gapWaitMs: opts.gapWaitMs ?? 3 };
    this.wake = new RelayWake(times, this.clock, opts.commits);
  }

  /** An event this process just committed (a kick too). Dropping one is harmless: the outbox has it. */
  offer(event: CommittedEvent): void {
    if (this.ending()) return;
    this.memory.offer(event);
    this.dispatch(WAKE);
  }

  async start(): Promise<void> {
    this.publisher = new JetStreamPublisher(this.opts.nats.nc, this.opts.publishTimeoutMs, this.opts.ownerFeed);
    this.cleanups.push(this.opts.nats.onReconnect(() => this.kick()));
    const pollMs = this.opts.pollMs ?? 1_000;
    const poll = () => {
      if (this.ending()) return;
      this.kick();
      this.cancelPoll = this.clock.after(pollMs, poll, true);
    };
    this.cancelPoll = this.clock.after(pollMs, poll, true);
    this.kick();
  }

  /** Cheap and coalescing: call after every commit that handed no event over (offer). */
  kick(): void {
    if (this.ending()) return;
    this.wake.kickRead();
    this.dispatch(WAKE);
  }

  backlog(): Promise<number> {
    return this.opts.backlog?.() ?? Promise.reject(new Error("this relay was given no backlog query"));
  }

  async stop(): Promise<void> {
    this.closed ??= new Promise((resolve) => {
      this.markClosed = resolve;
    });
    this.dispatch(STOP);
    this.cancelPoll?.();
    for (const c of this.cleanups.splice(0)) await c();
    await this.closed;
    await this.opts.store.close();
  }

  private ending(): boolean {
    return this.state.name === "stopping" || this.state.name === "stopped";
  }

  private dispatch(event: RelayEvent): void {
    const { state, effects } = step(this.state, event);
    this.state = state;
    for (const e of effects) this.apply(e);
  }

  private apply(e: RelayEffect): void {
    switch (e.type) {
      case "run-batch":
        void this.runBatch();
        return;
      case "notify-batch":
        this.wake.notify();
        return;
      case "wake-in":
        this.cancelWake?.();
        this.cancelWake = this.clock.after(e.ms, () => this.kick(), true);
        return;
      case "cancel-wake":
        this.cancelWake?.();
        this.cancelWake = undefined;
        return;
      case "forget-memory":
        this.memory.reset();
        return;
      case "close":
        this.cancelWake?.();
        // After the last batch: closing rejects what still waits for an ack.
        this.publisher?.close();
        this.markClosed();
        return;
    }
  }

  private async runBatch(): Promise<void> {
    this.wake.beginLook();
    let outcome: Outcome;
    try {
      outcome = await this.drainBatch();
    } catch (err) {
      this.opts.log?.warn({ err }, "outbox relay failed");
      outcome = "failed";
    }
    // Asked only when the relay would sleep: asking puts the cross-thread latch to sleep too.
    const wokeDuring = (outcome === "idle" || outcome === "no-nats") && !this.ending() && !this.wake.quiet();
    this.dispatch({ type: "batch-ended", outcome, wokeDuring });
  }

  private async drainBatch(): Promise<Outcome> {
    // The events handed over so far committed before the read begins, so the read has them (or they
    // were published already; or the relay lock's holder, when it is busy, publishes them); and the
    // read answers every kick so far. Events handed over while it runs stay queued.
    this.memory.dropFirst(this.memory.queued());
    this.wake.readStarted();
    // While disconnected the client would buffer publishes and time out; wait for the reconnect kick.
    if (!this.opts.nats.connected()) return "no-nats";
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
    this.dispatch(ROWS_READ);
    // After a failure, one batch goes one at a time (always makes progress); otherwise pipelined.
    const sent =
      this.state.failures > 0
        ? await sendInTurn(batch, { maxPayload: this.opts.nats.maxPayload(), batchSize: this.batchSize }, (m) => this.publish(m), (parked) => this.park(batch, parked))
        : await this.sendPipelined(batch);
    const { acked, park, outcome } = settleBatch(sent, isPermanentPublishError);
    if (acked.length > 0) await batch.deletePublished(acked.map((m) => m.row.seq));
    // The wait before the read is Postgres's clock, the rest this thread's: no two clocks are compared.
    const published = sent.ackedAt.map((at, i) => Number(sent.send[i]!.row.waited_ms) + (at - sent.readAt(i)));
    const fromMemory = acked.filter((m) => m.row.handed).length;
    // What was sent after a refusal is not in the stream: the outbox, not memory, knows what is next.
    if (sent.failure !== undefined) this.memory.reset();
    if (outcome === "failed") this.opts.log?.warn({ err: sent.failure }, "outbox relay: publish failed, will retry");
    if (park) await this.park(batch, [park]);
    return { outcome, published, fromMemory, parked: sent.parked + (park ? 1 : 0) };
  }

  /**
   * Every row in flight at once; rows committed while the acks are awaited, or while the batch
   * lingers after them, join the batch: from memory when they follow their owners' last sent
   * rows, else read from the outbox.
   */
  private async sendPipelined(batch: RelayBatch): Promise<Sent> {
    const run = new PipelinedRun(batch.heldFrom, this.opts.nats.maxPayload());
    const openedAt = this.clock.now();
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
      const woke = await this.wake.nextInBatch(run, openedAt, waitingSince, () => this.ending());
      if (woke === "done" || run.failed()) break;
      if (woke === "kick") {
        // Every event already posted arrives before the relay looks: commits of one owner answered
        // in the same moment come in one look, whatever order their messages took.
        await setImmediate();
        this.wake.beginLook();
        if (!this.wake.readNeeded()) {
          const { rows, waiting } = this.memory.take((owner) => run.isHeld(owner), Date.now());
          waitingSince = waiting > 0 ? (waitingSince ?? this.clock.now()) : undefined;
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
