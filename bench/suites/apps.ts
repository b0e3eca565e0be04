import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { Figure, Suite } from "../types.ts";
import { higherIsBetter, lowerIsBetter } from "../lib/figures.ts";

const benchScript = fileURLToPath(new URL("../../extension/bench/apps-bench.ts", import.meta.url));
const resultFile = fileURLToPath(new URL("../../extension/bench/results/apps.json", import.meta.url));
const extensionDir = fileURLToPath(new URL("../../extension/", import.meta.url));

interface Side {
  completed: number;
  actions: number;
  reads: number;
  tokens: number;
}
interface Report {
  at: string;
  totals: { tasks: number; extension: Side; playwright: Side };
  rows: { task: string; extension: { done: boolean; failure?: string }; playwright: { done: boolean; failure?: string } }[];
}

/** The extension's own bench (extension/bench/apps-bench.ts) drives the tasks; this suite runs it and reads its JSON. */
function runAppsBench(log: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", benchScript], { cwd: extensionDir, stdio: ["ignore", "pipe", "inherit"] });
    child.stdout.on("data", (d: Buffer) => {
      for (const line of d.toString().split("\n")) if (line.trim()) log(line);
    });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`apps bench exited ${code}`))));
  });
}

export const apps: Suite = {
  name: "apps",
  description: "held-out app tasks by one fixed policy: the extension's snapshot and actions beside Playwright's ariaSnapshot({mode: 'ai'}) and aria-ref",
  async run({ log }) {
    const started = Date.now();
    // Counts, not timings: the same in a quick run.
    await runAppsBench(log);
    const report = JSON.parse(await readFile(resultFile, "utf8")) as Report;
    if (Date.parse(report.at) < started - 1_000) throw new Error("apps.json was not rewritten by this run");
    const { tasks, extension: ext, playwright: pw } = report.totals;
    const figures: Figure[] = [
      {
        ...higherIsBetter({ metric: `tasks completed (of ${tasks})`, value: ext.completed, unit: "tasks", baseline: { name: "Playwright ai", value: pw.completed, unit: "tasks" } }),
        goal: ">= Playwright's",
        met: ext.completed >= pw.completed,
      },
      {
        ...lowerIsBetter({ metric: "snapshot tokens read, all tasks", value: ext.tokens, unit: "tok", baseline: { name: "Playwright ai", value: pw.tokens, unit: "tok" } }),
        goal: "< Playwright's",
        met: ext.tokens < pw.tokens,
      },
      lowerIsBetter({ metric: "actions sent (scrolls and hovers included)", value: ext.actions, unit: "actions", baseline: { name: "Playwright ai", value: pw.actions, unit: "actions" } }),
      lowerIsBetter({ metric: "snapshots read", value: ext.reads, unit: "reads", baseline: { name: "Playwright ai", value: pw.reads, unit: "reads" } }),
    ];
    const failed = (k: "extension" | "playwright") => report.rows.filter((r) => !r[k].done).map((r) => `${r.task}: ${r[k].failure ?? ""}`);
    return { suite: "apps", figures, params: { tasks, failed_extension: failed("extension"), failed_playwright: failed("playwright") } };
  },
};
