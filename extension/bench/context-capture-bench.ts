// What the living page context costs on real pages, per page change: the page's main-thread script
// time (the extension reads the page there) with nobody listening against one listener, and the
// bytes each update sends as a merge patch against the full write it replaced. In real Chromium
// with the extension, the API, nats-server and Postgres of the end-to-end tests.
//   node --import tsx bench/context-capture-bench.ts      (from extension/; bench/suites/context-capture.ts runs it)
// Writes bench/results/context-capture.json.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { MERGE_PATCH_CONTENT_TYPE } from "@crumbs/schemas";
import { waitFor } from "@crumbs/testkit";
import { recordSentPatches, takeSentPatches } from "../test/e2e/sent-patches.ts";
import { captureCounts, leaseInterest, livingContext, startE2E, TOKEN, waitForContext, type E2E } from "../test/e2e/stack.ts";

const here = dirname(fileURLToPath(import.meta.url));
/** The end-to-end pages: an article, a shop and a single-page app. */
const PAGES = ["article.html", "store.html", "app.html"];
const CHANGES = Number(process.env.CONTEXT_CAPTURE_CHANGES ?? 20);

/** What bench/results/context-capture.json holds (bench/suites/context-capture.ts reads it). */
interface PageRow {
  page: string;
  /** The page's main-thread script time per change (CDP Performance.getMetrics ScriptDuration), ms. */
  scriptMsUnheard: number;
  scriptMsHeard: number;
  /** Page reads per change while nobody listened / while one listener did. */
  readsUnheard: number;
  readsHeard: number;
  /** Request bodies of the merge patches sent while heard, and what the same versions cost as full writes. */
  updates: number;
  mergeBytes: number;
  fullBytes: number;
}

interface CaptureReport {
  at: string;
  changes: number;
  rows: PageRow[];
}

/** The typical change of a reading session: a new paragraph, the title naming it, and a scroll. */
async function change(page: Page, tag: string, k: number): Promise<void> {
  await page.evaluate(
    ([t, n]) => {
      const p = document.createElement("p");
      p.textContent = `${t} paragraph ${n}: the reader reached a new part of the page, with a sentence of new text to read.`;
      (document.querySelector("main") ?? document.body).append(p);
      document.title = `${document.title.replace(/ · .*$/, "")} · ${t} ${n}`;
      window.scrollBy(0, 200);
    },
    [tag, k] as const,
  );
}

/** `n` changes, each followed by the tracker's run for it; the page's script time and reads over them. */
async function changes(e: E2E, page: Page, tag: string, n: number): Promise<{ scriptMs: number; reads: number }> {
  const cdp = await e.context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const script = async () => {
    const { metrics } = await cdp.send("Performance.getMetrics");
    return (metrics.find((m) => m.name === "ScriptDuration")?.value ?? 0) * 1000;
  };
  const start = await captureCounts(e);
  const s0 = await script();
  for (let k = 0; k < n; k++) {
    const before = await captureCounts(e);
    await change(page, tag, k);
    await waitFor(async () => {
      const now = await captureCounts(e);
      return now.captures + now.paused > before.captures + before.paused;
    }, { timeout: 10_000, message: `the tracker's run after change ${k} of ${tag}` });
  }
  const scriptMs = (await script()) - s0;
  await cdp.detach();
  return { scriptMs, reads: (await captureCounts(e)).captures - start.captures };
}

/** The body a full write of each version would have sent (title, tags, context), from the breadcrumb's history. */
async function fullBytes(e: E2E, versions: number[]): Promise<number> {
  const b = (await livingContext(e))!;
  const res = await fetch(`${e.api.url}/v1/breadcrumbs/${b.id}/history?limit=500`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const items = ((await res.json()) as { items: { version: number; title: string; tags: string[]; context: unknown }[] }).items;
  const byVersion = new Map(items.map((h) => [h.version, h]));
  return versions.reduce((sum, v) => {
    const h = byVersion.get(v);
    if (!h) throw new Error(`version ${v} is not in the history`);
    return sum + new TextEncoder().encode(JSON.stringify({ title: h.title, tags: h.tags, context: h.context })).length;
  }, 0);
}

async function main(): Promise<void> {
  const e = await startE2E({ pageAssistant: false, locked: true });
  const rows: PageRow[] = [];
  try {
    await e.configure();
    const unheard = new Map<string, { scriptMs: number; reads: number }>();
    for (const name of PAGES) {
      const page = await e.open(name);
      unheard.set(name, await changes(e, page, "unheard", CHANGES));
      await page.close();
    }
    const lease = await leaseInterest(e, { label: "bench: context capture" });
    try {
      for (const name of PAGES) {
        const page = await e.open(name);
        await waitForContext(e, (b) => String(b.context.url) === e.url(name), `context of ${name}`, 15_000);
        await recordSentPatches(e);
        const heard = await changes(e, page, "heard", CHANGES);
        // The updates that were written (a version each); a refused one is retried and counted when it succeeds.
        const sent = (await takeSentPatches(e)).filter((s) => s.version !== undefined);
        const merges = sent.filter((s) => s.type === MERGE_PATCH_CONTENT_TYPE);
        if (merges.length !== sent.length) throw new Error(`${name}: ${sent.length - merges.length} of ${sent.length} updates were full writes`);
        const u = unheard.get(name)!;
        rows.push({
          page: name,
          scriptMsUnheard: u.scriptMs / CHANGES,
          scriptMsHeard: heard.scriptMs / CHANGES,
          readsUnheard: u.reads / CHANGES,
          readsHeard: heard.reads / CHANGES,
          updates: merges.length,
          mergeBytes: merges.reduce((a, m) => a + m.bytes, 0),
          fullBytes: await fullBytes(e, merges.map((m) => m.version!)),
        });
        const r = rows.at(-1)!;
        console.log(
          `${name.padEnd(14)} script per change ${r.scriptMsUnheard.toFixed(2)} ms unheard, ${r.scriptMsHeard.toFixed(2)} ms heard; ` +
            `reads ${r.readsUnheard} / ${r.readsHeard}; ${r.updates} merge patches ${r.mergeBytes} B, as full writes ${r.fullBytes} B`,
        );
        await page.close();
      }
    } finally {
      await lease.release();
    }
  } finally {
    await e.close();
  }
  const out = join(here, "results", "context-capture.json");
  await mkdir(dirname(out), { recursive: true });
  const report: CaptureReport = { at: new Date().toISOString(), changes: CHANGES, rows };
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
