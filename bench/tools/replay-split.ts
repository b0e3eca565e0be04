/**
 * Where `crumbs replay --publish` spends its CPU, per process: the replay suite's stack and 100,000
 * history rows, a live subscriber, and the CLI run ROUNDS times per entry point, alternating, each
 * run with the CPU time of the CLI (reaped child), the API, Postgres and nats-server read from /proc,
 * beside nats.js publishing the same messages in this process. An entry point is a path to a
 * `bin/crumbs.js`, so two worktrees' CLIs compare against one stack:
 *
 *   cd bench && CLIS=../services/cli/bin/crumbs.js,/work/main/services/cli/bin/crumbs.js ROUNDS=3 \
 *     node --import tsx tools/replay-split.ts
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { connect } from "nats";
import postgres from "postgres";
import { startStack, TOKEN } from "../lib/stack.ts";
import { fillHistory, publishLikeReplay } from "../suites/replay.ts";
import { localPostmaster, processCpuMs, selfAndReapedCpuMs } from "../lib/cpu-account.ts";

/**
 * CPU so far of each backend of this run's database, by pid: the API's pool and this tool's
 * connection, not the other databases' (other work on the same Postgres server).
 */
async function backendsCpu(sql: postgres.Sql): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const { pid } of await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`) {
    const ms = processCpuMs(pid);
    if (ms > 0) out.set(pid, ms);
  }
  return out;
}

/** This process's own CPU so far, in ms (the subscriber's share while the CLI runs). */
const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const ROWS = Number(process.env.ROWS ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CLIS = (process.env.CLIS ?? "../services/cli/bin/crumbs.js").split(",").map((p) => resolve(p));
const ARGS = (process.env.ARGS ?? "replay --publish replay").split(" ");

const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

function childPidNamed(name: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.split(") ")[1]!.split(" ")[1]);
      if (ppid === process.pid && stat.includes(`(${name})`)) return pid;
    } catch {
      // gone
    }
  }
  return undefined;
}

function runCli(cli: string, env: Record<string, string>): Promise<{ ms: number; stderr: string }> {
  const t0 = performance.now();
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [cli, ...ARGS], { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("exit", (code) => (code === 0 ? res({ ms: performance.now() - t0, stderr }) : rej(new Error(`exit ${code}: ${stderr}`))));
  });
}

const stack = await startStack();
const sql = postgres(stack.db.url, { max: 1, onnotice: () => {} });
const nc = await connect({ servers: stack.nats.url });
try {
  await fillHistory(sql, ROWS);
  const postmaster = await localPostmaster(sql);
  const nats = childPidNamed("nats-server");
  let received = 0;
  const sub = nc.subscribe("replay.>", { callback: () => received++ });
  await nc.flush();
  const sample = (await sql<{ e: string }[]>`select event_json::text as e from breadcrumb_history order by seq limit 1`)[0]!.e;
  const env = { CRUMBS_URL: stack.api.url, CRUMBS_TOKEN: TOKEN, NATS_URL: stack.nats.url };
  if (process.env.HOLD) {
    // The stack stays up for runs by hand (profiles) until this process is stopped.
    console.log(Object.entries({ ...env, API_PID: stack.api.pid, POSTMASTER: postmaster, NATS_PID: nats }).map(([k, v]) => `export ${k}=${v}`).join("\n"));
    await new Promise<void>((res) => process.once("SIGTERM", res));
  }
  const waitAll = async () => {
    const deadline = Date.now() + 20_000;
    while (received < ROWS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (received !== ROWS) throw new Error(`received ${received} of ${ROWS}`);
  };
  console.log("cli | load | wall ms | reported /s | CLI cpu | API cpu | PG cpu | nats-server cpu | subscriber cpu | sum | nats.js /s | ratio");
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...CLIS].reverse() : CLIS;
    for (const cli of order) {
      received = 0;
      const c0 = selfAndReapedCpuMs();
      const s0 = selfCpuMs();
      const a0 = processCpuMs(stack.api.pid);
      const p0 = postmaster ? await backendsCpu(sql) : undefined;
      const n0 = nats ? processCpuMs(nats) : 0;
      const run = await runCli(cli, env);
      const subMs = selfCpuMs() - s0;
      // The reaped child alone: what this process spent meanwhile (its subscriber) is taken out.
      const cliMs = Math.round(selfAndReapedCpuMs() - c0 - subMs);
      const apiMs = processCpuMs(stack.api.pid) - a0;
      // A backend that started during the run counts whole; one that ended during it is missed.
      const pgMs = p0 ? [...(await backendsCpu(sql))].reduce((sum, [pid, ms]) => sum + ms - (p0.get(pid) ?? 0), 0) : NaN;
      await waitAll();
      const natsMs = nats ? processCpuMs(nats) - n0 : NaN;
      const subTotal = Math.round(selfCpuMs() - s0);
      const reported = Number(/\((\d+) events\/s\)/.exec(run.stderr)?.[1] ?? NaN);

      received = 0;
      const t0 = performance.now();
      await publishLikeReplay(nc, sample, ROWS);
      await waitAll();
      const natsRate = ROWS / ((performance.now() - t0) / 1000);
      const cliRate = ROWS / (run.ms / 1000);
      console.log(
        [cli.replace(/\/services\/cli\/bin\/crumbs\.js$/, ""), load(), Math.round(run.ms), reported, cliMs, apiMs, pgMs, natsMs, subTotal, cliMs + apiMs + pgMs + natsMs + subTotal, Math.round(natsRate), (cliRate / natsRate).toFixed(3)].join(" | "),
      );
    }
  }
  sub.unsubscribe();
} finally {
  await nc.close();
  await sql.end();
  await stack.close();
}
