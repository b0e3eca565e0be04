// `npm run bench`: runs every suite on this machine, prints one table and writes
// bench/results/latest.json with the figures, their same-run baselines and machine facts.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg, totalmem, release } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Suite, SuiteResult } from "./types.ts";
import { suites } from "./suites/index.ts";

const here = dirname(fileURLToPath(import.meta.url));

function versionOf(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().split("\n")[0] ?? "";
  } catch {
    return "not found";
  }
}

function machineFacts() {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? "unknown",
    memory_gib: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres: versionOf("psql", ["--version"]),
    pgbench: versionOf("pgbench", ["--version"]),
    nats_server: versionOf("nats-server", ["--version"]),
    chromium: versionOf(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ["--version"]),
    git_commit: versionOf("git", ["rev-parse", "--short", "HEAD"]),
    // Other work on the machine moves every figure; the ratios to same-run baselines move less.
    load_avg_1m: round2(loadavg()[0] ?? 0),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function fmt(n: number | undefined): string {
  if (n === undefined || Number.isNaN(n)) return "-";
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 1) return n.toFixed(2);
  return n.toPrecision(3);
}

function printTable(results: SuiteResult[]) {
  const rows = [["suite", "metric", "value", "baseline", "ratio", "goal", "met"]];
  for (const r of results) {
    for (const f of r.figures) {
      rows.push([
        r.suite,
        f.metric,
        `${fmt(f.value)} ${f.unit}`,
        f.baseline ? `${fmt(f.baseline.value)} ${f.baseline.unit} (${f.baseline.name})` : "-",
        f.ratio === undefined ? "-" : `${fmt(f.ratio)}x`,
        f.goal ?? "-",
        f.met === undefined ? "-" : f.met ? "yes" : "NO",
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const [i, row] of rows.entries()) {
    console.log(row.map((c, j) => c.padEnd(widths[j]!)).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

async function main() {
  const { values } = parseArgs({
    options: { only: { type: "string" }, quick: { type: "boolean", default: false } },
  });
  const only = values.only?.split(",").map((s) => s.trim());
  const selected: Suite[] = only ? suites.filter((s) => only.includes(s.name)) : suites;
  const results: SuiteResult[] = [];
  const failures: { suite: string; error: string }[] = [];
  const started = Date.now();
  const loadAtStart = round2(loadavg()[0] ?? 0);
  for (const suite of selected) {
    const t0 = Date.now();
    console.error(`== ${suite.name}: ${suite.description}`);
    try {
      const result = await suite.run({ quick: values.quick ?? false, log: (m) => console.error(`   ${m}`) });
      results.push(result);
      console.error(`   done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } catch (err) {
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      failures.push({ suite: suite.name, error: message });
      console.error(`   FAILED: ${message}`);
    }
  }
  const report = {
    at: new Date().toISOString(),
    duration_s: Math.round((Date.now() - started) / 1000),
    machine: { ...machineFacts(), load_avg_1m_at_start: loadAtStart },
    results,
    failures,
  };
  await mkdir(join(here, "results"), { recursive: true });
  await writeFile(join(here, "results", "latest.json"), JSON.stringify(report, null, 2) + "\n");
  console.log("");
  printTable(results);
  console.log(`\nwrote bench/results/latest.json (${report.duration_s} s)`);
  if (failures.length) {
    console.error(`${failures.length} suite(s) failed: ${failures.map((f) => f.suite).join(", ")}`);
    process.exitCode = 1;
  }
}

await main();
