import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { percentile } from "../stats.ts";

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  /** Milliseconds, from the per-transaction log. */
  p50: number;
  p99: number;
  raw: string;
}

/** Runs pgbench with a custom script; latencies come from its per-transaction log (-l). */
export async function pgbench(opts: {
  databaseUrl: string;
  script: string;
  clients: number;
  threads: number;
  seconds: number;
  vars: Record<string, string>;
}): Promise<PgbenchResult> {
  const dir = await mkdtemp(join(tmpdir(), "crumbs-pgbench-"));
  try {
    const scriptPath = join(dir, "script.sql");
    await writeFile(scriptPath, opts.script);
    const url = new URL(opts.databaseUrl);
    const args = [
      "-n",
      "-M", "prepared",
      "-c", String(opts.clients),
      "-j", String(opts.threads),
      "-T", String(opts.seconds),
      "-f", scriptPath,
      "-l", `--log-prefix=${join(dir, "tx")}`,
      "-h", url.hostname,
      "-p", url.port || "5432",
      "-U", decodeURIComponent(url.username || "postgres"),
      ...Object.entries(opts.vars).flatMap(([k, v]) => ["-D", `${k}=${v}`]),
      url.pathname.slice(1),
    ];
    const { stdout } = await run(process.env.PGBENCH ?? "/usr/bin/pgbench", args, { maxBuffer: 16 * 2 ** 20 });
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? NaN);
    const transactions = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(stdout)?.[1] ?? 0);
    const latencies: number[] = [];
    for (const f of await readdir(dir)) {
      if (!f.startsWith("tx")) continue;
      for (const line of (await readFile(join(dir, f), "utf8")).split("\n")) {
        const us = Number(line.split(" ")[2]);
        if (Number.isFinite(us) && line) latencies.push(us / 1000);
      }
    }
    return { tps, transactions, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), raw: stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
