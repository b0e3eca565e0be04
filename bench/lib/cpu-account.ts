import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type postgres from "postgres";
import { threadSchedMs } from "@crumbs/testkit";

/**
 * Where a phase's CPU went, read from /proc: the API process, all of Postgres, and the machine's
 * idle share. write-path puts the API's phases beside pgbench's with it, so a gap in writes/s can
 * be traced to the side that spends more per write.
 */

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS;

/** /proc/<pid>/stat fields after the command name: index 11 is utime, 12 stime, 13 cutime, 14 cstime, 1 ppid. */
function statFields(pid: number, path = `/proc/${pid}/stat`): string[] | undefined {
  try {
    return readFileSync(path, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 once it is gone. */
export function processCpuMs(pid: number): number {
  const f = statFields(pid);
  return f ? ticksToMs(Number(f[11]) + Number(f[12])) : 0;
}

/**
 * CPU time of a process's main thread so far, in ms (its task whose id is the pid); 0 once it
 * is gone. The rest of a Node process's time is its other threads: the API's relay thread, V8's
 * garbage collector and compiler threads, libuv's pool.
 */
export function mainThreadCpuMs(pid: number): number {
  const f = statFields(pid, `/proc/${pid}/task/${pid}/stat`);
  return f ? ticksToMs(Number(f[11]) + Number(f[12])) : 0;
}

// A thread's run and wait time lives in the testkit, which tests bound work with too.
export { threadSchedMs };

/**
 * CPU time of this process so far, in ms, with its children that have exited (cutime/cstime):
 * the load generator's cost, whether it is this process's HTTP clients or a pgbench it ran.
 */
export function selfAndReapedCpuMs(): number {
  const f = statFields(process.pid, "/proc/self/stat");
  return f ? ticksToMs(Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) : 0;
}

/**
 * CPU time of a Postgres server so far, in ms: the postmaster, its live children, and the
 * children it has reaped (cutime/cstime), so backends that exit within a phase (pgbench's) still
 * count. Every database's backends are in it: the bench's runs alone on the server.
 */
export function postgresCpuMs(postmaster: number): number {
  const own = statFields(postmaster);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const f = statFields(pid);
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticksToMs(ticks);
}

/** The postmaster's pid when the server runs on this machine (its backends are its children), else undefined. */
export async function localPostmaster(sql: postgres.Sql): Promise<number | undefined> {
  const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const f = row ? statFields(row.pid) : undefined;
  if (!f) return undefined;
  const parent = Number(f[1]);
  const comm = readFileSync(`/proc/${parent}/comm`, "utf8").trim();
  return comm.startsWith("postgres") ? parent : undefined;
}

/** Busy and total CPU time of the whole machine so far, in ms (idle and iowait count as not busy). */
export function machineCpuMs(): { busy: number; total: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = fields[3]! + fields[4]!;
  return { busy: ticksToMs(total - idle), total: ticksToMs(total) };
}

/** WAL flushes (fsyncs) so far, from pg_stat_wal (Postgres 14 and later); undefined where it is missing. */
export async function walSyncs(sql: postgres.Sql): Promise<number | undefined> {
  try {
    const [row] = await sql<{ n: string }[]>`select wal_sync::text as n from pg_stat_wal`;
    return row ? Number(row.n) : undefined;
  } catch {
    return undefined;
  }
}

export interface PhaseCpu {
  /** The API process; 0 for a phase the API only watches. */
  apiMs: number;
  /** Its main thread (HTTP), part of apiMs. */
  apiMainMs: number;
  /** How long the main thread was runnable but not on a CPU; undefined without schedstat. */
  apiMainWaitMs?: number;
  /** The phase's wall time. */
  wallMs: number;
  /** The load generator: this process, and pgbench once it has exited. */
  clientMs: number;
  /** All of Postgres; undefined when the server is not on this machine. */
  postgresMs?: number;
  /** Share of the machine's CPU time that was idle, 0-1. */
  idle: number;
  walSyncs?: number;
}

/** Measures one phase: call before it, then `end()` after it. */
export async function startPhaseCpu(sql: postgres.Sql, apiPid: number, postmaster: number | undefined) {
  const api0 = processCpuMs(apiPid);
  const main0 = mainThreadCpuMs(apiPid);
  const sched0 = threadSchedMs(apiPid);
  const wall0 = performance.now();
  const client0 = selfAndReapedCpuMs();
  const pg0 = postmaster === undefined ? undefined : postgresCpuMs(postmaster);
  const m0 = machineCpuMs();
  const wal0 = await walSyncs(sql);
  return {
    async end(): Promise<PhaseCpu> {
      const m1 = machineCpuMs();
      const wal1 = await walSyncs(sql);
      const span = m1.total - m0.total;
      const sched1 = threadSchedMs(apiPid);
      return {
        apiMs: processCpuMs(apiPid) - api0,
        apiMainMs: mainThreadCpuMs(apiPid) - main0,
        ...(sched0 && sched1 ? { apiMainWaitMs: sched1.waitMs - sched0.waitMs } : {}),
        wallMs: performance.now() - wall0,
        clientMs: selfAndReapedCpuMs() - client0,
        ...(pg0 !== undefined ? { postgresMs: postgresCpuMs(postmaster!) - pg0 } : {}),
        idle: span > 0 ? 1 - (m1.busy - m0.busy) / span : 0,
        ...(wal0 !== undefined && wal1 !== undefined ? { walSyncs: wal1 - wal0 } : {}),
      };
    },
  };
}
