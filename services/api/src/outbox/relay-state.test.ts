import { describe, expect, it } from "vitest";
import { PublishError } from "../nats/publisher.ts";
import { settleBatch, type Outgoing } from "./batch.ts";
import { outboxRow as row } from "./outbox-rows.fixture.ts";
import { PipelinedRun, type PublishFn } from "./pipelined-run.ts";
import { isPermanentPublishError } from "./prepare.ts";
import { ManualClock } from "./relay-clock.fixture.ts";
import { INITIAL, ROWS_READ, step, STOP, WAKE, type Outcome, type RelayEvent, type RelayState } from "./relay-state.ts";
import { RelayWake } from "./relay-wake.ts";

/**
 * The state machine driven as OutboxRelay drives it, on a clock the test moves: effects are
 * carried out (a batch started is counted, a timed wake goes on the clock), nothing sleeps.
 */
function relayOn(clock: ManualClock) {
  let state: RelayState = INITIAL;
  let batches = 0;
  let cancel: (() => void) | undefined;
  const effects: string[] = [];
  const send = (e: RelayEvent) => {
    const next = step(state, e);
    state = next.state;
    for (const fx of next.effects) {
      effects.push(fx.type === "wake-in" ? `wake-in ${fx.ms}` : fx.type);
      if (fx.type === "run-batch") batches++;
      if (fx.type === "wake-in") {
        cancel?.();
        cancel = clock.after(fx.ms, () => send(WAKE));
      }
      if (fx.type === "cancel-wake" || fx.type === "close") cancel?.();
    }
  };
  return {
    send,
    end: (outcome: Outcome, wokeDuring = false) => send({ type: "batch-ended", outcome, wokeDuring }),
    state: () => state,
    batches: () => batches,
    effects,
  };
}

describe("relay states", () => {
  it("a publish outage backs off 100 ms doubling up to 5 s, and the first good batch brings it back to idle", () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    r.send(WAKE);
    expect(r.state().name).toBe("reading");
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const before = r.batches();
      r.send(ROWS_READ);
      r.end("failed");
      expect(r.state().name).toBe("backing-off");
      waits.push(clock.pending()[0]!);
      clock.advance(waits.at(-1)! - 1);
      expect(r.batches()).toBe(before);
      clock.advance(1);
      expect(r.batches()).toBe(before + 1);
    }
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
    expect(r.effects).toContain("forget-memory");
    // Recovery: the batch after the outage goes one event at a time (failures > 0), then all is well.
    expect(r.state().failures).toBe(8);
    r.send(ROWS_READ);
    r.end("idle");
    expect(r.state()).toEqual({ name: "idle", failures: 0 });
    expect(clock.pending()).toEqual([]);
    // The next failure starts the backoff from the beginning.
    r.send(WAKE);
    r.end("failed");
    expect(clock.pending()).toEqual([100]);
  });

  it("a wake during a backoff runs the batch at once and drops the timer", () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    r.send(WAKE);
    r.end("failed");
    r.send(WAKE);
    expect(r.state().name).toBe("reading");
    expect(r.batches()).toBe(2);
    expect(clock.pending()).toEqual([]);
  });

  it("NATS down: the relay waits for the reconnect's wake, with no timer of its own", () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    r.send(WAKE);
    r.end("no-nats");
    expect(r.state().name).toBe("waiting-for-nats");
    expect(clock.pending()).toEqual([]);
    r.send(WAKE);
    r.send(ROWS_READ);
    expect(r.state().name).toBe("publishing");
    r.end("idle");
    expect(r.state().name).toBe("idle");
  });

  it("another relay holds the lock: look again in 25 ms", () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    r.send(WAKE);
    r.end("busy");
    expect(r.state().name).toBe("lock-busy");
    clock.advance(24);
    expect(r.batches()).toBe(1);
    clock.advance(1);
    expect(r.state().name).toBe("reading");
    expect(r.batches()).toBe(2);
  });

  it("a bad event is parked and the ones behind it are published by the next batch, at once", async () => {
    const stored: string[] = [];
    const bad = "id2:1:updated";
    // JetStream as the relay meets it: the bad event refused as too large for the stream (permanent),
    // the one chained after it refused because its expected last message is missing.
    const publish: PublishFn = async (m: Outgoing, previous) => {
      if (m.row.msg_id === bad) throw new PublishError("REFUSED", "message size exceeds maximum allowed", 10054);
      if (previous !== undefined && previous !== stored.at(-1)) throw new PublishError("REFUSED", "wrong last msg id", 10070);
      stored.push(m.row.msg_id);
      return 0;
    };
    const r = relayOn(new ManualClock());
    r.send(WAKE);
    r.send(ROWS_READ);
    const first = new PipelinedRun(new Map(), 64 * 1024);
    first.add([row(1, "a"), row(2, "b"), row(3, "c")], publish);
    const outcome1 = await first.outcome();
    const s1 = settleBatch({ ...outcome1, send: first.sent(), readAt: () => 0, full: false, parked: 0 }, isPermanentPublishError);
    expect(s1.acked.map((m) => m.row.seq)).toEqual(["1"]);
    expect([s1.park?.row.seq, s1.park?.reason]).toEqual(["2", "publish refused: PublishError: message size exceeds maximum allowed"]);
    r.end(s1.outcome);
    expect(r.state().name).toBe("reading");
    expect(r.batches()).toBe(2);
    // The next batch reads what is left: row 3, no longer behind anything.
    const second = new PipelinedRun(new Map(), 64 * 1024);
    second.add([row(3, "c")], publish);
    const s2 = settleBatch({ ...(await second.outcome()), send: second.sent(), readAt: () => 0, full: false, parked: 0 }, isPermanentPublishError);
    expect([s2.outcome, s2.park]).toEqual(["idle", undefined]);
    r.end(s2.outcome);
    expect(stored).toEqual(["id1:1:updated", "id3:1:updated"]);
    expect(r.state().name).toBe("idle");
  });

  it("a transient publish failure is not parked: the batch fails and the relay backs off", () => {
    const m = { row: row(1, "a"), owner: "a", data: new Uint8Array() };
    const s = settleBatch({ send: [m], ackedAt: [], failure: new PublishError("TIMEOUT", "no ack"), readAt: () => 0, full: false, parked: 0 }, isPermanentPublishError);
    expect([s.outcome, s.park, s.acked]).toEqual(["failed", undefined, []]);
  });

  it("stop during a publish: the batch finishes, then the publisher closes and nothing starts again", async () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    r.send(WAKE);
    r.send(ROWS_READ);
    expect(r.state().name).toBe("publishing");
    // The batch waits for its acks.
    let ack!: () => void;
    const acks = new Promise<"settled">((resolve) => (ack = () => resolve("settled")));
    const wake = new RelayWake({ lingerMs: 10, maxBatchMs: 50, gapWaitMs: 3 }, clock);
    const next = wake.nextInBatch({ settled: () => acks, failed: () => false }, clock.now(), undefined, () => r.state().name === "stopping");
    r.send(STOP);
    expect(r.state().name).toBe("stopping");
    expect(r.effects).not.toContain("close");
    r.send(WAKE);
    expect(r.batches()).toBe(1);
    ack();
    // Stopping, the batch does not linger for more events once its acks are in.
    await expect(next).resolves.toBe("done");
    expect(clock.pending()).toEqual([]);
    r.end("more");
    expect(r.state().name).toBe("stopped");
    expect(r.effects.at(-1)).toBe("close");
    expect(r.batches()).toBe(1);
  });

  it("an open batch lingers lingerMs for the next event once its acks are in, on the clock", async () => {
    const clock = new ManualClock();
    const wake = new RelayWake({ lingerMs: 10, maxBatchMs: 50, gapWaitMs: 3 }, clock);
    wake.beginLook();
    wake.readStarted();
    let result: string | undefined;
    const next = wake.nextInBatch({ settled: async () => "settled", failed: () => false }, clock.now(), undefined, () => false);
    void next.then((x) => (result = x));
    await Promise.resolve();
    await Promise.resolve();
    expect(clock.pending()).toEqual([10]);
    clock.advance(9);
    await Promise.resolve();
    expect(result).toBeUndefined();
    clock.advance(1);
    await expect(next).resolves.toBe("done");
  });

  it("a wake while reading is not lost: the batch's wait answers at once, and the relay does not sleep after it", async () => {
    const clock = new ManualClock();
    const r = relayOn(clock);
    const wake = new RelayWake({ lingerMs: 10, maxBatchMs: 50, gapWaitMs: 3 }, clock);
    r.send(WAKE);
    wake.beginLook();
    wake.readStarted();
    // An event is handed over while the batch reads: the machine tells the batch.
    r.send(WAKE);
    expect(r.effects.at(-1)).toBe("notify-batch");
    wake.notify();
    const never = new Promise<"settled">(() => {});
    await expect(wake.nextInBatch({ settled: () => never, failed: () => false }, clock.now(), undefined, () => false)).resolves.toBe("kick");
    // Had the batch ended without looking, it would not sleep on it either.
    expect(wake.quiet()).toBe(false);
    r.end("idle", !wake.quiet());
    expect(r.state().name).toBe("reading");
    expect(r.batches()).toBe(2);
    // With nothing new, the next batch ends and the relay sleeps.
    wake.beginLook();
    wake.readStarted();
    r.end("idle", !wake.quiet());
    expect(r.state().name).toBe("idle");
  });
});
