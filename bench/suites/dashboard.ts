import { launchChromium } from "@crumbs/testkit";
import type { Page } from "playwright-core";
import { buildDashboard } from "@crumbs/dashboard/build";
import { startStack, TOKEN } from "../lib/stack.ts";
import { percentile, round } from "../stats.ts";
import type { Figure, Suite } from "../types.ts";

const STORED = 1_000;
// Schemas with no registered context schema, so any context is accepted.
const SCHEMAS = ["bench.page.v1", "bench.chat.v1", "bench.answer.v1", "bench.product.v1"];

/** Rows that fill the first screen of the 1280x860 viewport. */
const SCREEN_ROWS = 20;

interface Sample {
  /** Navigation start to the first screen of rows. */
  first: number;
  /** Navigation start to all `rows` rows in the table. */
  total: number;
  /** Navigation start to the last list response's end: the part spent before rendering could start. */
  api: number;
}

/** Times from navigation start until the breadcrumbs table shows `rows` rows (in-page clock, next frame). */
async function timeToRows(page: Page, url: string, rows: number, loadMore = false): Promise<Sample> {
  await page.goto("about:blank");
  await page.goto(url);
  if (loadMore) {
    await page.getByRole("button", { name: "Load more" }).click();
  }
  const handle = await page.waitForFunction(
    ([n, screen]) => {
      const w = window as unknown as { firstScreenAt?: number };
      const count = document.querySelectorAll('table[aria-label="Breadcrumbs"] tbody tr').length;
      if (count >= screen && w.firstScreenAt === undefined) w.firstScreenAt = performance.now();
      if (count < n) return false;
      const lists = performance.getEntriesByType("resource").filter((e) => e.name.includes("/v1/breadcrumbs?"));
      return { first: w.firstScreenAt!, total: performance.now(), api: Math.max(...lists.map((e) => (e as PerformanceResourceTiming).responseEnd)) };
    },
    [rows, SCREEN_ROWS] as const,
    { polling: "raf", timeout: 30_000 },
  );
  return (await handle.jsonValue()) as Sample;
}

export const dashboard: Suite = {
  name: "dashboard",
  description: "the dashboard's breadcrumbs page in Chromium with 1,000 breadcrumbs stored: navigation start to rows on screen (in-page clock)",
  async run({ quick, log }) {
    const runs = quick ? 5 : 15;
    await buildDashboard();
    const stack = await startStack();
    const browser = await launchChromium();
    try {
      let n = 0;
      const seed = async () => {
        for (let i = n++; i < STORED; i = n++) {
          const schema_name = SCHEMAS[i % SCHEMAS.length]!;
          await stack.http.json("POST", "/v1/breadcrumbs", 201, {
            body: { schema_name, title: `Item ${i} of the dashboard bench`, tags: [`n:${i % 10}`, "bench:dashboard"], context: { i, text: "x".repeat(200), nested: { a: i, b: [1, 2, 3] } } },
          });
        }
      };
      await Promise.all(Array.from({ length: 8 }, seed));
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 1280, height: 860 });
      const ui = `${stack.api.url}/ui/`;
      await page.goto(ui);
      await page.getByLabel("API token").fill(TOKEN);
      await page.keyboard.press("Enter");
      await page.getByRole("navigation", { name: "Pages" }).waitFor();

      const cases = [
        { name: "default page (50 rows)", url: `${ui}#/breadcrumbs`, rows: 50, loadMore: false },
        { name: "500 rows per page", url: `${ui}#/breadcrumbs?limit=500`, rows: 500, loadMore: false },
        { name: "1,000 rows (500 + Load more)", url: `${ui}#/breadcrumbs?limit=500`, rows: 1_000, loadMore: true },
      ];
      const figures: Figure[] = [];
      const params: Record<string, unknown> = { stored: STORED, runs };
      for (const c of cases) {
        await timeToRows(page, c.url, c.rows, c.loadMore); // warm: caches, JIT
        const got: Sample[] = [];
        for (let r = 0; r < runs; r++) got.push(await timeToRows(page, c.url, c.rows, c.loadMore));
        const p = (xs: number[], q: number) => round(percentile(xs, q), 0);
        const first = got.map((g) => g.first);
        const total = got.map((g) => g.total);
        const after = got.map((g) => g.total - g.api);
        log(`${c.name}: first screen p50 ${p(first, 50)} ms; all rows p50 ${p(total, 50)} ms, p95 ${p(total, 95)} ms; after the last list response p50 ${p(after, 50)} ms`);
        if (!c.loadMore) {
          figures.push({ metric: `${c.name}: first screen, p50`, value: p(first, 50), unit: "ms", goal: "< 300 ms", met: p(first, 50) < 300 });
          figures.push({ metric: `${c.name}: first screen, p95`, value: p(first, 95), unit: "ms" });
        }
        figures.push({
          metric: `${c.name}: all rows, p50`,
          value: p(total, 50),
          unit: "ms",
          ...(c.loadMore ? { note: "includes the Load more click from Playwright and the second request" } : {}),
        });
        figures.push({ metric: `${c.name}: all rows, p95`, value: p(total, 95), unit: "ms" });
        figures.push({ metric: `${c.name}: all rows after the last list response, p50`, value: p(after, 50), unit: "ms" });
        params[c.name] = got.map((g) => ({ first: round(g.first, 0), total: round(g.total, 0), api: round(g.api, 0) }));
      }
      return { suite: "dashboard", figures, params };
    } finally {
      await browser.close();
      await stack.close();
    }
  },
};
