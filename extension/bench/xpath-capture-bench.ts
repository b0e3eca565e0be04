/**
 * XPath targets and capture_candidates (BENCHMARKS.md, "XPath targets and candidates"), in real Chromium:
 *   - XPath: the crumbs.execute round trip of `get` by XPath on a 20,000-element page (test/generated-pages.ts,
 *     hugePage) for shapes the extension accepts, and for the shapes it refuses both the refusal's round trip
 *     and what the page's own document.evaluate would have cost (on a 20,000-element page, and on a flat list
 *     of 4,000 items for the sibling axis, whose cost grows with the square of the list);
 *   - capture_candidates: time and characters for 3 boxes and 3 crops on the 800-node storefront (typicalPage),
 *     one capture every 1.1 s (the rate limit is one a second).
 * Prints a table and writes bench/results/xpath-capture.json.
 *   npm run bench:xpath-capture -w @crumbs/extension     (RUNS=5 by default)
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { startHarness, type Harness } from "../test/harness.ts";

const RUNS = Number(process.env.RUNS ?? 5);
const here = dirname(fileURLToPath(import.meta.url));

const ACCEPTED = ["(//section[@aria-label='Block 100']//button)[1]", "//li[span='Item 90.7']/a", "//section[last()]/h2", "//h2[.='Block 12']/following::button[1]"];
const REFUSED = ["//section[count(//a) > 0]", "//li/following::li", "//li[preceding-sibling::li]"];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(h: Harness, command: unknown): Promise<{ ms: number; ok: boolean; error?: string }> {
  const t = performance.now();
  const r = await h.execute(command);
  return { ms: performance.now() - t, ok: r.success, ...(r.error ? { error: r.error } : {}) };
}

/** document.evaluate in the page itself, first 200 nodes taken as the extension takes them. */
function evaluateInPage(page: Page, expr: string): Promise<number> {
  return page.evaluate((x) => {
    const t = performance.now();
    const res = document.evaluate(x, document, null, XPathResult.ORDERED_NODE_ITERATOR_TYPE, null);
    for (let n = 0; n < 200 && res.iterateNext(); n++);
    return performance.now() - t;
  }, expr);
}

const h = await startHarness();
const results: Record<string, unknown> = {};
try {
  const page = await h.openFixture("gen/nodes-20000.html");
  const elements = await page.evaluate(() => document.getElementsByTagName("*").length);
  const accepted: Record<string, number> = {};
  for (const xpath of ACCEPTED) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await timed(h, { type: "get", params: { selector: { xpath }, what: "text" } });
      if (!r.ok) throw new Error(`${xpath}: ${r.error}`);
      runs.push(r.ms);
    }
    accepted[xpath] = median(runs);
  }
  const refused: Record<string, { refusal_ms: number; evaluate_ms: number; page: string }> = {};
  const list = await h.openFixture("gen/list-4000.html");
  for (const xpath of REFUSED) {
    const r = await timed(h, { type: "get", params: { selector: { xpath }, what: "text" } });
    if (r.ok) throw new Error(`${xpath} was not refused`);
    const onList = xpath.includes("sibling");
    refused[xpath] = { refusal_ms: r.ms, evaluate_ms: await evaluateInPage(onList ? list : page, xpath), page: onList ? "4,000-item list" : `${elements} elements` };
  }
  await list.close();
  await page.close();

  const shop = await h.openFixture("gen/typical-800.html");
  const text = String(((await h.execute({ type: "snapshot", params: {} })).data as { text: string }).text);
  const refs = [...text.matchAll(/button "Add to cart" \[ref=(e\d+)\]/g)].slice(0, 3).map((m) => m[1]!);
  const capture: { ms: number; chars: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    await new Promise((r) => setTimeout(r, 1_100));
    const t = performance.now();
    const r = await h.execute({ type: "capture_candidates", params: { refs, crops: 3 } });
    if (!r.success) throw new Error(`capture_candidates: ${r.error}`);
    capture.push({ ms: performance.now() - t, chars: (r.data as { chars: number }).chars });
  }
  await shop.close();

  Object.assign(results, {
    elements,
    accepted_median_ms: accepted,
    refused,
    capture: { boxes: refs.length, crops: 3, median_ms: median(capture.map((c) => c.ms)), chars: median(capture.map((c) => c.chars)) },
  });
  console.log(`XPath on a page of ${elements} elements, get round trip (median of ${RUNS}):`);
  for (const [x, ms] of Object.entries(accepted)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${x}`);
  console.log("Refused shapes: refusal round trip, and document.evaluate had it run:");
  for (const [x, r] of Object.entries(refused)) console.log(`  ${r.refusal_ms.toFixed(1).padStart(8)} ms  ${r.evaluate_ms.toFixed(0).padStart(7)} ms (${r.page})  ${x}`);
  const c = results.capture as { median_ms: number; chars: number };
  console.log(`capture_candidates, 3 boxes + 3 crops on the storefront: ${c.median_ms.toFixed(0)} ms, ${c.chars} characters (median of ${RUNS})`);
  await mkdir(join(here, "results"), { recursive: true });
  await writeFile(join(here, "results", "xpath-capture.json"), JSON.stringify(results, null, 2));
} finally {
  await h.close();
}
