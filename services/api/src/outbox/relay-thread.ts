import type { Logger } from "@crumbs/telemetry";
import { Worker } from "node:worker_threads";
import type { CommittedEvent } from "../store/committed-event.ts";
import type { Relay } from "./relay.ts";
import { systemClock, type CancelTimer, type RelayClock } from "./relay-clock.ts";
import { commitNeedsKick, KICK, type FromRelayThread, type RelayWorkerData, type ToRelayThread } from "./relay-protocol.ts";

export interface ThreadRelayOptions extends Omit<RelayWorkerData, "kickFlag"> {
  backlog(): Promise<number>;
  /** Events published, each with its delay in ms from its write to JetStream's ack, and how many came from memory (OutboxRelay's). */
  onPublished?(delaysMs: readonly number[], fromMemory: number): void;
  onParked?(count: number): void;
  log?: Logger;
  /** Wait before starting a thread again after it died (e.g. the postgres driver's uncaught TypeError). */
  restartMs?: number;
  /** The restart timer's clock (tests pass relay-clock.fixture.ts's). */
  clock?: RelayClock;
}

const STOP_TIMEOUT_MS = 15_000;
// Built (the image's dist/*.js): the worker's own JavaScript. From source: a boot file that
// registers tsx first, since a worker starts as plain Node.
const bootUrl = import.meta.url.endsWith(".js")
  ? new URL("./relay-worker.js", import.meta.url)
  : new URL("./relay-worker-boot.mjs", import.meta.url);

/**
 * The outbox relay in a worker thread of the API process (relay-worker.ts): its
 * Postgres round trips, JSON encoding and JetStream acks run off the event loop
 * that serves HTTP. A kick is one flag in shared memory plus, only when the relay
 * sleeps, one message (relay-protocol.ts). A thread that dies is started again.
 */
export class ThreadRelay implements Relay {
  private worker: Worker | undefined;
  private readonly kickFlag = new Int32Array(new SharedArrayBuffer(4));
  private stopping = false;
  private cancelRestart: CancelTimer | undefined;
  private stopped: Promise<void> | undefined;
  /** After stop(): true when the thread closed its connections itself before it exited. */
  stoppedCleanly = false;

  constructor(private readonly opts: ThreadRelayOptions) {}

  /** The thread running now; undefined between a death and its restart (tests end it to see the restart). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  /** Resolves once the thread is connected and relaying; rejects when it could not start. */
  start(): Promise<void> {
    const { backlog: _b, onPublished: _p, onParked: _k, log: _l, restartMs: _r, clock: _c, ...data } = this.opts;
    const workerData: RelayWorkerData = { ...data, kickFlag: this.kickFlag.buffer as SharedArrayBuffer };
    const worker = new Worker(bootUrl, { workerData, execArgv: workerExecArgv() });
    this.worker = worker;
    Atomics.store(this.kickFlag, 0, KICK.IDLE);
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      let stoppedCleanly = false;
      worker.on("message", (m: FromRelayThread) => {
        if (m.type === "ready") {
          ready = true;
          resolve();
        } else if (m.type === "failed") reject(new Error(`relay thread: ${m.message}`));
        else if (m.type === "published") this.opts.onPublished?.(m.delaysMs, m.fromMemory);
        else if (m.type === "parked") this.opts.onParked?.(m.n);
        else if (m.type === "log") this.opts.log?.[m.level](m.fields, m.msg);
        else if (m.type === "stopped") stoppedCleanly = true;
      });
      worker.on("error", (err) => {
        this.opts.log?.warn({ err }, "relay thread failed");
        if (!ready) reject(err);
      });
      worker.on("exit", (code) => {
        if (this.worker === worker) this.worker = undefined;
        if (!ready) return reject(new Error(`relay thread exited with code ${code} before it started`));
        if (this.stopping || stoppedCleanly) return;
        this.opts.log?.warn({ code }, "relay thread exited, starting another");
        this.restartLater();
      });
    });
  }

  private restartLater(): void {
    this.cancelRestart?.();
    const clock = this.opts.clock ?? systemClock;
    const restart = () => {
      if (this.stopping) return;
      this.start().catch((err: unknown) => {
        this.opts.log?.warn({ err }, "relay thread did not start again");
        this.restartLater();
      });
    };
    this.cancelRestart = clock.after(this.opts.restartMs ?? 1_000, restart, true);
  }

  kick(): void {
    const worker = this.worker;
    if (!worker || this.stopping) return;
    // Events offered before this kick reach the thread before it, as they came.
    this.postOffered();
    if (commitNeedsKick(this.kickFlag)) worker.postMessage({ type: "kick" } satisfies ToRelayThread);
  }

  /**
   * Events are posted together once the current microtasks are done (process.nextTick), so the
   * writes of one combined statement, which settle together, cross to the thread in one message:
   * a message costs the HTTP thread ~4 us besides copying its events (8-10 us per event alone,
   * 4-6 in fours, measured with 4 KB payloads).
   */
  offer(event: CommittedEvent): void {
    if (!this.worker || this.stopping) return;
    this.offered.push(event);
    if (this.offered.length === 1) process.nextTick(this.postOffered);
  }

  private offered: CommittedEvent[] = [];

  private readonly postOffered = (): void => {
    if (this.offered.length === 0) return;
    const events = this.offered;
    this.offered = [];
    const worker = this.worker;
    if (!worker || this.stopping) return;
    worker.postMessage({ type: "events", events } satisfies ToRelayThread);
  };

  backlog(): Promise<number> {
    return this.opts.backlog();
  }

  stop(): Promise<void> {
    this.stopped ??= this.stopWorker();
    return this.stopped;
  }

  private async stopWorker(): Promise<void> {
    this.postOffered();
    this.stopping = true;
    this.cancelRestart?.();
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) =>
      worker.once("exit", (code) => {
        // The thread exits with 0 itself once its connections are closed; terminate() gives 1.
        this.stoppedCleanly = code === 0;
        resolve();
      }),
    );
    worker.postMessage({ type: "stop" } satisfies ToRelayThread);
    const timer = setTimeout(() => {
      this.opts.log?.warn("relay thread did not stop in time, terminating it");
      void worker.terminate();
    }, STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * The process's profiling flags (--cpu-prof, --heap-prof and their options), so a profiled API
 * profiles its relay thread too. Nothing else: a worker refuses per-process and V8 flags
 * (e.g. --max-old-space-size) with ERR_WORKER_INVALID_EXEC_ARGV, and the thread registers tsx itself.
 */
function workerExecArgv(): string[] {
  return process.execArgv.filter((a) => /^--(cpu|heap)-prof/.test(a));
}
