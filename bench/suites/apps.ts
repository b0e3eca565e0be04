import type { Figure, Suite } from "../types.ts";
import { runExtensionBench } from "../lib/extension-bench.ts";
import { higherIsBetter, lowerIsBetter } from "../lib/figures.ts";

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

export const apps: Suite = {
  name: "apps",
  description: "held-out app tasks by one fixed policy: the extension's snapshot and actions beside Playwright's ariaSnapshot({mode: 'ai'}) and aria-ref",
  async run({ log }) {
    // The extension's own bench (extension/bench/apps-bench.ts) drives the tasks. Counts, not timings: the same in a quick run.
    const report = await runExtensionBench<Report>("apps", {}, log);
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
