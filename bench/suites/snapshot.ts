import type { Figure, Suite } from "../types.ts";
import { runExtensionBench } from "../lib/extension-bench.ts";
import { lowerIsBetter } from "../lib/figures.ts";

const BUDGET_TOKENS = 4_000;

interface Stat {
  median: number;
  p90: number;
}
interface Row {
  page: string;
  visible_nodes: number;
  ours: { build_ms: Stat; execute_ms: Stat; tokens: number; truncated: boolean; refs: number };
  playwright: { ms: Stat; tokens: number };
}

export const snapshot: Suite = {
  name: "snapshot",
  description: "snapshot engine build time and tokens beside Playwright ariaSnapshot({mode: 'ai'}) on the same pages",
  async run({ quick, log }) {
    // The extension's own bench (extension/bench/snapshot-bench.ts) does the measuring.
    const report = await runExtensionBench<{ at: string; runs: number; rows: Row[] }>("snapshot", { RUNS: String(quick ? 5 : 15) }, log);
    const figures: Figure[] = [];
    for (const r of report.rows) {
      const page = r.page.replace(/\.html$/, "");
      const faster = (f: Figure) => ({ ...f, goal: "faster than Playwright", met: (f.ratio ?? 0) > 1 });
      figures.push(
        faster(lowerIsBetter({ metric: `${page} build median`, value: r.ours.build_ms.median, unit: "ms", baseline: { name: "Playwright ai", value: r.playwright.ms.median, unit: "ms" } })),
        faster(lowerIsBetter({ metric: `${page} build p90`, value: r.ours.build_ms.p90, unit: "ms", baseline: { name: "Playwright ai", value: r.playwright.ms.p90, unit: "ms" } })),
        lowerIsBetter({ metric: `${page} execute round trip median`, value: r.ours.execute_ms.median, unit: "ms", baseline: { name: "Playwright ai", value: r.playwright.ms.median, unit: "ms" } }),
        {
          ...lowerIsBetter({ metric: `${page} tokens${r.ours.truncated ? " (cut)" : ""}`, value: r.ours.tokens, unit: "tok", baseline: { name: "Playwright ai", value: r.playwright.tokens, unit: "tok" } }),
          goal: `<= ${BUDGET_TOKENS}`,
          met: r.ours.tokens <= BUDGET_TOKENS,
        },
      );
    }
    return { suite: "snapshot", figures, params: { runs: report.runs, pages: report.rows.map((r) => ({ page: r.page, visible_nodes: r.visible_nodes, refs: r.ours.refs })) } };
  },
};
