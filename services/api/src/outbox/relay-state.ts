// The relay's states and what moves it between them, as pure logic: no IO, no timers, no clock.
// OutboxRelay (relay.ts) feeds it events and carries out the effects it answers; a batch's own
// inside (reads, publishes, the linger for the next event) is relay.ts's and relay-wake.ts's.

/**
 * idle: nothing is known to be owed; a wake (a kick, a handed-over event, another thread's commit,
 *   the poll, NATS reconnecting) starts a batch.
 * reading: a batch holds the relay lock and reads the outbox.
 * publishing: the batch has sent what it read and reads more as commits come, until it closes.
 * waiting-for-nats: NATS is disconnected; its reconnect kicks the relay (so does the poll).
 * backing-off: a batch failed; the next one runs after 100 ms doubling up to 5 s, or at a wake.
 * lock-busy: another relay (another replica) holds the lock; look again in 25 ms, or at a wake.
 * stopping: stop() came while a batch runs; it finishes, and nothing starts after it.
 * stopped: the publisher is closed; every event is ignored.
 */
export type RelayStateName =
  | "idle"
  | "reading"
  | "publishing"
  | "waiting-for-nats"
  | "backing-off"
  | "lock-busy"
  | "stopping"
  | "stopped";

export interface RelayState {
  readonly name: RelayStateName;
  /** Batches failed in a row: sets the backoff, and after one the next batch sends one event at a time. */
  readonly failures: number;
}

/**
 * How a batch ended: "idle" found nothing more to read; "more" read a full batch or parked rows, so
 * more are likely waiting; "busy" found the lock held; "failed" threw or had a publish fail for a
 * reason that may pass (timeouts, no responders); "no-nats" did not start for want of NATS.
 */
export type Outcome = "idle" | "more" | "busy" | "failed" | "no-nats";

export type RelayEvent =
  | { readonly type: "wake" }
  | { readonly type: "rows-read" }
  /** wokeDuring: a wake came while the batch ran (asked only after "idle" and "no-nats"). */
  | { readonly type: "batch-ended"; readonly outcome: Outcome; readonly wokeDuring: boolean }
  | { readonly type: "stop" };

export type RelayEffect =
  /** Start a batch now. */
  | { readonly type: "run-batch" }
  /** Tell the running batch that something came (it may be waiting for it). */
  | { readonly type: "notify-batch" }
  /** Wake the relay after `ms` (one such timer at a time: this replaces the one set before). */
  | { readonly type: "wake-in"; readonly ms: number }
  | { readonly type: "cancel-wake" }
  /** Forget the events handed over in memory: after a failure nothing sent is known to be in the stream. */
  | { readonly type: "forget-memory" }
  /** Close the publisher; stop() resolves. */
  | { readonly type: "close" };

export const BACKOFF_FIRST_MS = 100;
export const BACKOFF_MAX_MS = 5_000;
export const LOCK_BUSY_RETRY_MS = 25;

export const WAKE: RelayEvent = { type: "wake" };
export const ROWS_READ: RelayEvent = { type: "rows-read" };
export const STOP: RelayEvent = { type: "stop" };

const NONE: readonly RelayEffect[] = [];
const RUN: readonly RelayEffect[] = [{ type: "run-batch" }];
const CANCEL_AND_RUN: readonly RelayEffect[] = [{ type: "cancel-wake" }, { type: "run-batch" }];
const NOTIFY: readonly RelayEffect[] = [{ type: "notify-batch" }];
const CLOSE: readonly RelayEffect[] = [{ type: "close" }];
const CANCEL_AND_CLOSE: readonly RelayEffect[] = [{ type: "cancel-wake" }, { type: "close" }];
const LOCK_RETRY: readonly RelayEffect[] = [{ type: "wake-in", ms: LOCK_BUSY_RETRY_MS }];

/** The backoff after `failures` batches failed in a row (the first waits 100 ms). */
export function backoffMs(failures: number): number {
  return Math.min(50 * 2 ** failures, BACKOFF_MAX_MS);
}

export const INITIAL: RelayState = { name: "idle", failures: 0 };

/**
 * The next state and what to do. Every state has an answer to every event; the ones that do
 * not apply change nothing. Unchanged states come back as the same object, and the effects are
 * shared constants but for the backoff: a wake while a batch runs (once per event under load)
 * allocates nothing.
 */
export function step(s: RelayState, e: RelayEvent): { state: RelayState; effects: readonly RelayEffect[] } {
  switch (s.name) {
    case "idle":
    case "waiting-for-nats":
      if (e.type === "wake") return { state: { name: "reading", failures: s.failures }, effects: RUN };
      if (e.type === "stop") return { state: { name: "stopped", failures: s.failures }, effects: CLOSE };
      return { state: s, effects: NONE };
    case "backing-off":
    case "lock-busy":
      // A wake does not wait for the timer: a commit or a reconnect is news the failure did not know.
      if (e.type === "wake") return { state: { name: "reading", failures: s.failures }, effects: CANCEL_AND_RUN };
      if (e.type === "stop") return { state: { name: "stopped", failures: s.failures }, effects: CANCEL_AND_CLOSE };
      return { state: s, effects: NONE };
    case "reading":
    case "publishing":
      if (e.type === "wake") return { state: s, effects: NOTIFY };
      if (e.type === "rows-read") return s.name === "reading" ? { state: { name: "publishing", failures: s.failures }, effects: NONE } : { state: s, effects: NONE };
      // The batch is not woken: it finishes what it sent, and closes once its acks are in.
      if (e.type === "stop") return { state: { name: "stopping", failures: s.failures }, effects: NONE };
      return ended(s, e.outcome, e.wokeDuring);
    case "stopping":
      if (e.type === "batch-ended") return { state: { name: "stopped", failures: s.failures }, effects: CLOSE };
      return { state: s, effects: NONE };
    case "stopped":
      return { state: s, effects: NONE };
  }
}

function ended(s: RelayState, outcome: Outcome, wokeDuring: boolean): { state: RelayState; effects: readonly RelayEffect[] } {
  if (outcome === "failed") {
    const failures = s.failures + 1;
    return { state: { name: "backing-off", failures }, effects: [{ type: "forget-memory" }, { type: "wake-in", ms: backoffMs(failures) }] };
  }
  if (outcome === "busy") return { state: { name: "lock-busy", failures: 0 }, effects: LOCK_RETRY };
  if (outcome === "more" || wokeDuring) return { state: { name: "reading", failures: 0 }, effects: RUN };
  return { state: { name: outcome === "no-nats" ? "waiting-for-nats" : "idle", failures: 0 }, effects: NONE };
}
