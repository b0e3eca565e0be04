import { execFile } from "node:child_process";
import { availableParallelism } from "node:os";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { machineCpuMs, mainThreadCpuMs, postgresCpuMs, processCpuMs, selfAndReapedCpuMs, threadSchedMs } from "./cpu-account.ts";

const run = promisify(execFile);

function burn(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("CPU accounting from /proc", () => {
  it("counts the CPU time this process spends", () => {
    const before = processCpuMs(process.pid);
    burn(300);
    // Clock ticks are 10 ms; a busy loop of 300 ms wall gets most of it even on a loaded machine.
    expect(processCpuMs(process.pid) - before).toBeGreaterThanOrEqual(100);
  });

  it("tells the main thread's time from the other threads'", async () => {
    const process0 = processCpuMs(process.pid);
    const main0 = mainThreadCpuMs(process.pid);
    // A worker thread burns about 400 ms while the main thread waits for it.
    const worker = new Worker("const t = Date.now() + 400; while (Date.now() < t);", { eval: true });
    await new Promise((resolve) => worker.once("exit", resolve));
    const main = mainThreadCpuMs(process.pid) - main0;
    expect(processCpuMs(process.pid) - process0 - main).toBeGreaterThanOrEqual(200);
    burn(300);
    expect(mainThreadCpuMs(process.pid) - main0).toBeGreaterThanOrEqual(100);
  });

  it("tells a thread's time on a CPU from its time waiting for one", async () => {
    const before = threadSchedMs(process.pid);
    if (!before) return expect.fail("no /proc/<pid>/task/<tid>/schedstat on this kernel");
    // One busy thread per core besides this one: while this thread burns too, it must wait for a CPU
    // about a third of the time on 2 cores (more threads than cores, each its fair share).
    const workers = Array.from({ length: availableParallelism() }, () => new Worker("const t = Date.now() + 900; while (Date.now() < t);", { eval: true }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = threadSchedMs(process.pid)!;
    burn(600);
    const after = threadSchedMs(process.pid)!;
    await Promise.all(workers.map((w) => new Promise((resolve) => w.once("exit", resolve))));
    expect(after.runMs - during.runMs).toBeGreaterThanOrEqual(100);
    expect(after.waitMs - during.waitMs).toBeGreaterThanOrEqual(30);
    expect(after.runMs + after.waitMs - (during.runMs + during.waitMs)).toBeLessThanOrEqual(700);
    expect(threadSchedMs(2 ** 22 + 1)).toBeUndefined();
  });

  it("gives 0 for a process that does not exist", () => {
    expect(processCpuMs(2 ** 22 + 1)).toBe(0);
    expect(mainThreadCpuMs(2 ** 22 + 1)).toBe(0);
    expect(postgresCpuMs(2 ** 22 + 1)).toBe(0);
  });

  it("keeps the CPU time of children that have exited, as a postmaster's reaped backends", async () => {
    const before = postgresCpuMs(process.pid);
    // A child that burns about 400 ms and exits; the parent reaps it, so its time moves to cutime.
    await run(process.execPath, ["-e", "const t = Date.now() + 400; while (Date.now() < t);"]);
    const after = postgresCpuMs(process.pid);
    expect(after - before).toBeGreaterThanOrEqual(200);
  });

  it("counts a load generator's CPU whether it runs here or as a child that has exited (pgbench)", async () => {
    const start = selfAndReapedCpuMs();
    burn(300);
    const afterOwn = selfAndReapedCpuMs();
    expect(afterOwn - start).toBeGreaterThanOrEqual(100);
    await run(process.execPath, ["-e", "const t = Date.now() + 400; while (Date.now() < t);"]);
    expect(selfAndReapedCpuMs() - afterOwn).toBeGreaterThanOrEqual(200);
  });

  it("reads the machine's busy time within its total", () => {
    const a = machineCpuMs();
    burn(100);
    const b = machineCpuMs();
    expect(b.total).toBeGreaterThan(a.total);
    expect(b.busy - a.busy).toBeGreaterThan(0);
    expect(b.busy - a.busy).toBeLessThanOrEqual(b.total - a.total);
  });
});
