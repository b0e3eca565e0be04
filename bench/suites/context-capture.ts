import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Figure, Suite } from "../types.ts";
import { round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";

const benchScript = fileURLToPath(new URL("../../extension/bench/context-capture-bench.ts", import.meta.url));
const resultFile = fileURLToPath(new URL("../../extension/bench/results/context-capture.json", import.meta.url));
const extensionDir = fileURLToPath(new URL("../../extension/", import.meta.url));

interface Row {
  page: string;
  scriptMsUnheard: number;
  scriptMsHeard: number;
  readsUnheard: number;
  readsHeard: number;
  updates: number;
  mergeBytes: number;
  fullBytes: number;
}

/** The extension's own bench drives Chromium with the extension; this suite runs it and reads its JSON. */
function runCaptureBench(changes: number, log: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", benchScript], {
      cwd: extensionDir,
      env: { ...process.env, CONTEXT_CAPTURE_CHANGES: String(changes) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.on("data", (d: Buffer) => {
      for (const line of d.toString().split("\n")) if (line.trim()) log(line);
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`context capture bench exited ${code}`))));
  });
}

/**
 * The living page context on real pages (the end-to-end article, shop and app), per page change: the
 * page's main-thread script time and reads with nobody listening (no interest lease: the extension
 * reads nothing) and with one listener (it reads the page on every change, as it did before leases),
 * and the bytes each update sends as a merge patch against the full write of the same version.
 */
export const contextCapture: Suite = {
  name: "context-capture",
  description: "the extension's page context on real pages, per change: page script time and reads unheard vs heard, merge patch vs full write bytes",
  async run({ quick, log }) {
    const started = Date.now();
    await runCaptureBench(quick ? 5 : 20, log);
    const report = JSON.parse(await readFile(resultFile, "utf8")) as { at: string; changes: number; rows: Row[] };
    if (Date.parse(report.at) < started - 1_000) throw new Error("context-capture.json was not rewritten by this run");
    const figures: Figure[] = report.rows.flatMap((r) => [
      lowerIsBetter({
        metric: `${r.page}: bytes per update (merge patch)`,
        value: round(r.mergeBytes / r.updates, 0),
        unit: "B",
        baseline: { name: "full write, same versions", value: round(r.fullBytes / r.updates, 0), unit: "B" },
      }),
      lowerIsBetter({
        metric: `${r.page}: page script time per change, nobody listening`,
        value: round(r.scriptMsUnheard, 2),
        unit: "ms",
        baseline: { name: "one listener: the page read on every change", value: round(r.scriptMsHeard, 2), unit: "ms" },
      }),
      lowerIsBetter({ metric: `${r.page}: page reads per change, nobody listening`, value: r.readsUnheard, unit: "reads", baseline: { name: "one listener", value: r.readsHeard, unit: "reads" } }),
    ]);
    return { suite: "context-capture", figures, params: { changes: report.changes, rows: report.rows } };
  },
};
