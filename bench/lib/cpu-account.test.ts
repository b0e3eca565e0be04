import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { Worker } from "node:worker_threads";
import { machineCpuMs, mainThreadCpuMs, postgresCpuMs, processCpuMs, selfAndReapedCpuMs, threadSchedMs } from "./cpu-account.ts";

const run = promisify(execFile);

// Work is counted in CPU time, never in wall time: on a busy machine a loop that spins for 300 ms
// of wall time may get 80 ms of CPU, and a bound on what /proc reports then fails for no fault of
// the accounting. Each loop below runs until the kernel's own counter for it (getrusage, the same
// source /proc/<pid>/stat is scaled from) says it has used that much.

/** Spins this thread until it has used `ms` of CPU. */
function burnCpu(ms: number): void {
  const start = process.threadCpuUsage();
  for (;;) {
    const used = process.threadCpuUsage(start);
    if (used.user + used.system >= ms * 1000) return;
  }
}

/** Source for a worker or child that spins until its own thread has used `ms` of CPU, then ends. */
const burnCpuSource = (ms: number) =>
  `const s = process.threadCpuUsage(); for (;;) { const u = process.threadCpuUsage(s); if (u.user + u.system >= ${ms * 1000}) break; }`;

/** Clock ticks are 10 ms and /proc rounds down: what it reports may trail the true figure by that much per field. */
const TICK_SLACK_MS = 20;

describe("CPU accounting from /proc", () => {
  it("counts the CPU time this process spends", () => {
    const before = processCpuMs(process.pid);
    burnCpu(300);
    expect(processCpuMs(process.pid) - before).toBeGreaterThanOrEqual(300 - TICK_SLACK_MS);
  });

  it("tells the main thread's time from the other threads'", async () => {
    const process0 = processCpuMs(process.pid);
    const main0 = mainThreadCpuMs(process.pid);
    // A worker thread burns 400 ms of CPU while the main thread waits for it.
    const worker = new Worker(burnCpuSource(400), { eval: true });
    await new Promise((resolve) => worker.once("exit", resolve));
    const main = mainThreadCpuMs(process.pid) - main0;
    expect(processCpuMs(process.pid) - process0 - main).toBeGreaterThanOrEqual(400 - TICK_SLACK_MS);
    burnCpu(300);
    expect(mainThreadCpuMs(process.pid) - main0).toBeGreaterThanOrEqual(300 - TICK_SLACK_MS);
  });

  it("tells a thread's time on a CPU from its time waiting for one", async () => {
    const before = threadSchedMs(process.pid);
    if (!before) return expect.fail("no /proc/<pid>/task/<tid>/schedstat on this kernel");
    // One busy thread per core besides this one, spinning until told to stop: while this thread
    // burns too there are more runnable threads than cores, so it must wait for a CPU (about a third
    // of the time on 2 cores, each thread its fair share; more on a machine that is busy already).
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const started = new Int32Array(new SharedArrayBuffer(4));
    const spin = "const { workerData: [stop, started] } = require('node:worker_threads'); Atomics.add(started, 0, 1); while (Atomics.load(stop, 0) === 0);";
    const workers = Array.from({ length: availableParallelism() }, () => new Worker(spin, { eval: true, workerData: [stop, started] }));
    const exited = Promise.all(workers.map((w) => new Promise((resolve) => w.once("exit", resolve))));
    try {
      await vi.waitUntil(() => Atomics.load(started, 0) === workers.length, { timeout: 30_000 });
      const during = threadSchedMs(process.pid)!;
      const wallStart = performance.now();
      burnCpu(300);
      const wall = performance.now() - wallStart;
      const after = threadSchedMs(process.pid)!;
      const runMs = after.runMs - during.runMs;
      const waitMs = after.waitMs - during.waitMs;
      expect(runMs).toBeGreaterThanOrEqual(300 - TICK_SLACK_MS);
      expect(waitMs).toBeGreaterThanOrEqual(30);
      // A thread that is runnable the whole time is either on a CPU or waiting for one: the two add
      // up to the wall time between the reads, never more (1 ms for the reads themselves).
      expect(runMs + waitMs).toBeLessThanOrEqual(wall + 1);
    } finally {
      Atomics.store(stop, 0, 1);
      await exited;
    }
    expect(threadSchedMs(2 ** 22 + 1)).toBeUndefined();
  });

  it("gives 0 for a process that does not exist", () => {
    expect(processCpuMs(2 ** 22 + 1)).toBe(0);
    expect(mainThreadCpuMs(2 ** 22 + 1)).toBe(0);
    expect(postgresCpuMs(2 ** 22 + 1)).toBe(0);
  });

  it("keeps the CPU time of children that have exited, as a postmaster's reaped backends", async () => {
    const before = postgresCpuMs(process.pid);
    // A child that burns 400 ms of CPU and exits; the parent reaps it, so its time moves to cutime.
    await run(process.execPath, ["-e", burnCpuSource(400)]);
    const after = postgresCpuMs(process.pid);
    expect(after - before).toBeGreaterThanOrEqual(400 - TICK_SLACK_MS);
  });

  it("counts a load generator's CPU whether it runs here or as a child that has exited (pgbench)", async () => {
    const start = selfAndReapedCpuMs();
    burnCpu(300);
    const afterOwn = selfAndReapedCpuMs();
    expect(afterOwn - start).toBeGreaterThanOrEqual(300 - TICK_SLACK_MS);
    await run(process.execPath, ["-e", burnCpuSource(400)]);
    expect(selfAndReapedCpuMs() - afterOwn).toBeGreaterThanOrEqual(400 - TICK_SLACK_MS);
  });

  it("reads the machine's busy time within its total", () => {
    const a = machineCpuMs();
    burnCpu(100);
    const b = machineCpuMs();
    expect(b.total).toBeGreaterThan(a.total);
    expect(b.busy - a.busy).toBeGreaterThan(0);
    expect(b.busy - a.busy).toBeLessThanOrEqual(b.total - a.total);
  });
});
