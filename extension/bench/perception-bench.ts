/**
 * Perception bench (BENCHMARKS.md, "Perception"), in real Chromium on the 800-node storefront
 * (test/generated-pages.ts, typicalPage):
 *   - the pcd's build time beside the snapshot's, from the same walk (snapshot with and without
 *     `pcd: true`, alternated so both see the same page and load);
 *   - `query` latency for ten phrasings: the content script's own time and the crumbs.execute round trip;
 *   - llm-view tokens of the page context the extension writes for this page, with the reference
 *     hints before this change (page_text, page_structure, interactive_summary, content and dom kept)
 *     and now (each fact once, with the pcd), and the same for the reference context of
 *     @crumbs/schemas (page-context-example.ts) with this page's snapshot in it.
 * Prints a table and writes bench/results/perception.json.
 *   npm run bench:perception -w @crumbs/extension     (RUNS=15 by default)
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderLlmView, REFERENCE_PAGE_CONTEXT, REFERENCE_PAGE_HINTS, type LlmHints } from "@crumbs/schemas";
import { estimateTokens } from "@crumbs/schemas/tokens";
import { interactiveElements } from "../src/background/context/interactive.ts";
import { readPageInfo } from "../src/background/context/page-info.ts";
import { startHarness } from "../test/harness.ts";

const RUNS = Number(process.env.RUNS ?? 15);
const here = dirname(fileURLToPath(import.meta.url));
const PAGE = "gen/typical-800.html";
const QUERIES = [
  "the checkout button",
  "email field",
  "search box",
  "sign in",
  "subscribe to the newsletter",
  "your name",
  "note",
  "section 7 in the menu",
  "footer link 12",
  "add product number 7 to the cart",
];

/**
 * The reference hints as the extension wrote them before each fact was kept once: its page_text,
 * page_structure and interactive_summary on top of the whole context (its summary came from the
 * built-in hints). Kept here only to measure what changed.
 */
const HINTS_BEFORE: LlmHints = {
  mode: "merge",
  transform: {
    interactive_summary: {
      type: "template",
      template: "There are {{context.dom.interactiveElements.length}} interactive elements on this page that the user can click or interact with.",
    },
    page_text: { type: "extract", value: "$.content.mainText" },
    page_structure: {
      type: "literal",
      literal: { headings: "{{context.content.headings}}", key_links: "{{context.content.links}}", forms_present: "{{context.content.forms.length > 0}}" },
    },
  },
  exclude: ["dom.map", "session.extensionId", "session.tabId", "session.windowId"],
};

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? NaN;
}
const round = (x: number) => Math.round(x * 100) / 100;
function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(quantile(sorted, 0.5)), p90: round(quantile(sorted, 0.9)) };
}

function viewTokens(context: Record<string, unknown>, hints: LlmHints): number {
  const view = renderLlmView({ schema_name: "browser.page.context.v1", title: `Browser: ${String(context.title)}`, tags: ["browser:context"], context: { ...context, llm_hints: hints } });
  return estimateTokens(JSON.stringify(view));
}

interface SnapData {
  text: string;
  refs: number;
  tokens: number;
  truncated: boolean;
  build_ms: number;
  pcd?: Record<string, unknown>;
  pcd_ms?: number;
}

async function main(): Promise<void> {
  const h = await startHarness();
  try {
    const page = await h.openFixture(PAGE);
    await page.waitForTimeout(200);
    const exec = async <T>(type: string, params: Record<string, unknown>): Promise<{ data: T; ms: number }> => {
      const t0 = performance.now();
      const r = await h.execute({ type, params });
      const ms = performance.now() - t0;
      if (!r.success) throw new Error(`${type}: ${r.error}`);
      return { data: r.data as T, ms };
    };

    // Snapshot alone and snapshot + pcd, alternated after one warm-up each.
    await exec("snapshot", {});
    await exec("snapshot", { pcd: true });
    const plain: number[] = [];
    const withPcd: number[] = [];
    const pcdMs: number[] = [];
    let last: SnapData | undefined;
    for (let i = 0; i < RUNS; i++) {
      plain.push((await exec<SnapData>("snapshot", {})).data.build_ms);
      last = (await exec<SnapData>("snapshot", { pcd: true })).data;
      withPcd.push(last.build_ms);
      pcdMs.push(last.pcd_ms ?? NaN);
    }

    // query: every phrasing RUNS times (one warm-up round first).
    for (const query of QUERIES) await exec("query", { query });
    const queryInPage: number[] = [];
    const queryRoundTrip: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const query of QUERIES) {
        const { data, ms } = await exec<{ took_ms: number }>("query", { query, limit: 5 });
        queryInPage.push(data.took_ms);
        queryRoundTrip.push(ms);
      }
    }

    // The page context the extension writes for this page (capture.ts), before and now.
    // tsx names functions with a `__name` helper that the page does not have.
    await page.evaluate("globalThis.__name = (f) => f");
    const info = (await page.evaluate(readPageInfo)) as Record<string, unknown>;
    const snap = last!;
    const snapshot = { text: snap.text, refs: snap.refs, tokens: snap.tokens, truncated: snap.truncated };
    const session = { extensionId: "abcdefghijklmnopabcdefghijklmnop", userId: "default", capturedAt: new Date().toISOString(), tabId: 1, windowId: 1 };
    const written = { ...info, dom: { rootId: "document", interactiveElements: interactiveElements(snap.text) }, session, snapshot };
    // The reference context of @crumbs/schemas, with this page's snapshot for a realistic one.
    const { llm_hints: _h, ...reference } = structuredClone(REFERENCE_PAGE_CONTEXT);
    const referenceLike = { ...reference, dom: { ...reference.dom, interactiveElements: interactiveElements(snap.text) }, snapshot };
    const tokens = {
      extension_context: { before: viewTokens(written, HINTS_BEFORE), now: viewTokens({ ...written, pcd: snap.pcd }, REFERENCE_PAGE_HINTS) },
      reference_like_context: { before: viewTokens(referenceLike, HINTS_BEFORE), now: viewTokens({ ...referenceLike, pcd: snap.pcd }, REFERENCE_PAGE_HINTS) },
      snapshot: estimateTokens(snap.text),
      pcd: estimateTokens(JSON.stringify(snap.pcd)),
    };

    const report = {
      at: new Date().toISOString(),
      runs: RUNS,
      page: PAGE,
      snapshot_build_ms: stats(plain),
      snapshot_with_pcd_build_ms: stats(withPcd),
      pcd_ms: stats(pcdMs),
      query_in_page_ms: stats(queryInPage),
      query_round_trip_ms: stats(queryRoundTrip),
      llm_view_tokens: tokens,
    };
    const rows: Array<[string, string]> = [
      ["snapshot build med / p90 (ms)", `${report.snapshot_build_ms.median} / ${report.snapshot_build_ms.p90}`],
      ["snapshot build with pcd asked, med / p90 (ms)", `${report.snapshot_with_pcd_build_ms.median} / ${report.snapshot_with_pcd_build_ms.p90}`],
      ["pcd from the walk, med / p90 (ms)", `${report.pcd_ms.median} / ${report.pcd_ms.p90}`],
      ["query in the page, med / p90 (ms)", `${report.query_in_page_ms.median} / ${report.query_in_page_ms.p90}`],
      ["query round trip, med / p90 (ms)", `${report.query_round_trip_ms.median} / ${report.query_round_trip_ms.p90}`],
      ["llm view tokens, extension's context: before -> now", `${tokens.extension_context.before} -> ${tokens.extension_context.now}`],
      ["llm view tokens, reference-like context: before -> now", `${tokens.reference_like_context.before} -> ${tokens.reference_like_context.now}`],
      ["of which snapshot / pcd", `${tokens.snapshot} / ${tokens.pcd}`],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    for (const [k, v] of rows) console.log(`${k.padEnd(width)} | ${v}`);
    const out = join(here, "results", "perception.json");
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nwrote ${out}`);
  } finally {
    await h.close();
  }
}

await main();
