/**
 * Snapshot bench: for each fixture and generated corpus page, median and p90 of our snapshot build time
 * (measured inside the page by the content script, plus the whole crumbs.execute round trip) and size,
 * beside Playwright's page.ariaSnapshot({mode: "ai"}) on the same pages in the same run.
 * Prints a table and writes bench/results/snapshot.json.
 *   npm run bench -w extension            (RUNS=15 by default)
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { estimateTokens } from "@crumbs/schemas/tokens";
import { startHarness } from "../test/harness.ts";

const RUNS = Number(process.env.RUNS ?? 15);
const here = dirname(fileURLToPath(import.meta.url));

const PAGES = [
  "snap-form.html",
  "snap-hidden.html",
  "snap-shadow.html",
  "snap-iframes.html",
  "snap-react.html",
  "snap-long-list.html",
  "gen/typical-800.html",
  "gen/nodes-10000.html",
  "gen/long-table.html",
  "gen/long-list.html",
];

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? NaN;
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)) };
}

const round = (x: number) => Math.round(x * 100) / 100;

interface Row {
  page: string;
  visible_nodes: number;
  ours: { build_ms: { median: number; p90: number }; execute_ms: { median: number; p90: number }; tokens: number; chars: number; refs: number; truncated: boolean };
  playwright: { ms: { median: number; p90: number }; tokens: number; chars: number };
}

async function main(): Promise<void> {
  const h = await startHarness();
  const rows: Row[] = [];
  try {
    for (const name of PAGES) {
      const page = await h.openFixture(name);
      await page.waitForLoadState("load");
      await page.waitForTimeout(200);
      const visible = await page.evaluate(() => {
        let n = 0;
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.nodeType === Node.TEXT_NODE) {
            if (node.nodeValue?.trim() && node.parentElement?.checkVisibility()) n++;
          } else if ((node as Element).checkVisibility()) n++;
        }
        return n;
      });
      const build: number[] = [];
      const exec: number[] = [];
      const pw: number[] = [];
      let last = { text: "", refs: 0, truncated: false };
      let pwText = "";
      // One warm-up each, then alternate so both see the same page state and machine load.
      await h.execute({ type: "snapshot" });
      await page.ariaSnapshot({ mode: "ai" });
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const r = await h.execute({ type: "snapshot" });
        exec.push(performance.now() - t0);
        if (!r.success) throw new Error(`${name}: ${r.error}`);
        const data = r.data as { text: string; refs: number; truncated: boolean; build_ms: number };
        build.push(data.build_ms);
        last = data;
        const t1 = performance.now();
        pwText = await page.ariaSnapshot({ mode: "ai" });
        pw.push(performance.now() - t1);
      }
      rows.push({
        page: name,
        visible_nodes: visible,
        ours: {
          build_ms: stats(build),
          execute_ms: stats(exec),
          tokens: estimateTokens(last.text),
          chars: last.text.length,
          refs: last.refs,
          truncated: last.truncated,
        },
        playwright: { ms: stats(pw), tokens: estimateTokens(pwText), chars: pwText.length },
      });
      await page.close();
    }
  } finally {
    await h.close();
  }

  const header = ["page", "visible", "ours build med/p90 ms", "ours execute med/p90 ms", "ours tokens", "cut", "pw ai med/p90 ms", "pw tokens"];
  const table = rows.map((r) => [
    r.page,
    String(r.visible_nodes),
    `${r.ours.build_ms.median} / ${r.ours.build_ms.p90}`,
    `${r.ours.execute_ms.median} / ${r.ours.execute_ms.p90}`,
    String(r.ours.tokens),
    r.ours.truncated ? "yes" : "no",
    `${r.playwright.ms.median} / ${r.playwright.ms.p90}`,
    String(r.playwright.tokens),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]?.length ?? 0)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of table) console.log(fmt(row));

  const out = join(here, "results", "snapshot.json");
  await mkdir(dirname(out), { recursive: true });
  await writeFile(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), runs: RUNS, playwright_mode: "ai", chromium: "Debian chromium via playwright-core", rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${out}`);
}

await main();
