import { readFileSync } from "node:fs";

/**
 * A thread's time on a CPU and its time runnable but waiting for one, so far, in ms, from
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds); undefined where the kernel does not keep it.
 * The wait is what a serial thread loses to the machine's other work: CPU time alone cannot tell
 * a thread that has nothing to do from one that is never scheduled. Tests bound a process's own
 * work in these units (its main thread's time on a CPU), so other jobs on a shared machine do not
 * fail them; the bench reports wall time.
 */
export function threadSchedMs(pid: number, tid = pid): { runMs: number; waitMs: number } | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").trim().split(" ").map(Number);
    if (!Number.isFinite(run) || !Number.isFinite(wait)) return undefined;
    return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
  } catch {
    return undefined;
  }
}
