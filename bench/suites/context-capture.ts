import type { Figure, Suite } from "../types.ts";
import { round } from "../stats.ts";
import { runExtensionBench } from "../lib/extension-bench.ts";
import { lowerIsBetter } from "../lib/figures.ts";

/** extension/bench/results/context-capture.json, as the extension's bench writes it (the fields read here). */
interface CaptureReport {
  at: string;
  changes: number;
  rows: { page: string; scriptMsUnheard: number; scriptMsHeard: number; readsUnheard: number; readsHeard: number; updates: number; mergeBytes: number; fullBytes: number }[];
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
    const report = await runExtensionBench<CaptureReport>("context-capture", { CONTEXT_CAPTURE_CHANGES: String(quick ? 5 : 20) }, log);
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
