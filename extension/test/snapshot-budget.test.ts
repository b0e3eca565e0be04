import { readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED } from "./generated-pages.ts";
import { fixturesDir, startHarness, type Harness } from "./harness.ts";

interface Snap {
  text: string;
  refs: number;
  tokens: number;
  truncated: boolean;
  build_ms: number;
  tree?: unknown[];
}

/** Secrets typed into the fixtures' password and one-time-code fields. */
const SECRETS = ["hunter2", "918273", "frame-secret-77", "typed-secret-42"];

let h: Harness;

async function snapshot(params: Record<string, unknown> = {}): Promise<Snap> {
  const r = await h.execute({ type: "snapshot", params });
  expect(r.error).toBeUndefined();
  return r.data as Snap;
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const pages = [
  ...readdirSync(fixturesDir).filter((f) => f.endsWith(".html")),
  ...Object.keys(GENERATED).map((g) => `gen/${g}`),
];

describe("snapshot budget and privacy on every fixture", () => {
  it("stays within 4,000 tokens, never shows a secret, and is deterministic", async () => {
    for (const name of pages) {
      const page = await h.openFixture(name);
      await page.waitForLoadState("load");
      // Secrets typed by a user, not only set in the HTML.
      await page.evaluate((secret) => {
        for (const el of document.querySelectorAll<HTMLInputElement>('input[type=password], input[autocomplete~="one-time-code"]')) {
          el.value = secret;
        }
      }, "typed-secret-42");
      const a = await snapshot({ format: "json" });
      const b = await snapshot({ format: "json" });
      expect(a.tokens, name).toBeLessThanOrEqual(4000);
      expect(a.text.length, name).toBeLessThanOrEqual(16_000);
      expect(b.text, `${name} deterministic`).toBe(a.text);
      const everything = a.text + JSON.stringify(a.tree);
      for (const secret of SECRETS) expect(everything, `${name} leaks ${secret}`).not.toContain(secret);
      await page.close();
    }
    // One test over every fixture (about 30 pages, two snapshots each): on the shared 2-core machine a page
    // can take seconds, which says nothing about the engine (its speed is the bench's question).
  }, 240_000);

  it("cuts a 10,000-node page deterministically and says what was left out", async () => {
    const page = await h.openFixture("gen/nodes-10000.html");
    const s = await snapshot();
    expect(s.truncated).toBe(true);
    expect(s.tokens).toBeLessThanOrEqual(4000);
    expect(s.text.split("\n").at(-1)).toMatch(/^- note: cut to fit 4000 tokens: \d+ lines left out/);
    // Interactive elements at the top of the page (in the viewport) come first.
    expect(s.text).toMatch(/- button "Do 0" \[ref=e\d+\]/);
    const smaller = await snapshot({ max_tokens: 500 });
    expect(smaller.tokens).toBeLessThanOrEqual(500);
    await page.close();
  });

  it("summarises a long list as `list \"Results\" (N items, M shown)`", async () => {
    const page = await h.openFixture("snap-long-list.html");
    const s = await snapshot();
    expect(s.text).toContain('- list "Results" (500 items, 20 shown)');
    expect(s.text).toMatch(/- button "Load more" \[ref=e\d+\]/);
    // After scrolling, the items now in view are the ones kept.
    await page.evaluate(() => document.querySelectorAll("li")[300]!.scrollIntoView());
    const scrolled = await snapshot();
    expect(scrolled.text).toContain('link "Item 300"');
    await page.close();
  });

  it("limits the snapshot to the viewport on request", async () => {
    const page = await h.openFixture("snap-long-list.html");
    const all = await snapshot({ max_tokens: 100_000 });
    const vp = await snapshot({ viewport_only: true, max_tokens: 100_000 });
    expect(all.truncated).toBe(false);
    expect(all.text).toContain('link "Item 499"');
    expect(vp.text).not.toContain('link "Item 499"');
    expect(vp.text).toContain('link "Item 0"');
    expect(vp.text.length).toBeLessThan(all.text.length / 5);
    await page.close();
  });

  // How fast is the bench's question (`npm run bench -- --only snapshot`, against Playwright in the same run):
  // a timed assertion would fail on a busy machine and pass a regression on a quiet one.
  it("snapshots an 800-node page within the token budget and reports how long the build took", async () => {
    const page = await h.openFixture("gen/typical-800.html");
    const visible = await page.evaluate(() => {
      let n = 0;
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE ? node.nodeValue!.trim() && (node.parentElement?.checkVisibility() ?? false) : (node as Element).checkVisibility()) n++;
      }
      return n;
    });
    expect(visible).toBeGreaterThanOrEqual(750);
    expect(visible).toBeLessThanOrEqual(900);
    const snap = await snapshot();
    expect(snap.text).toContain('button "Checkout"');
    expect(snap.tokens).toBeLessThanOrEqual(4_000);
    expect(snap.build_ms).toBeGreaterThan(0);
    expect(Number.isFinite(snap.build_ms)).toBe(true);
    await page.close();
  });
});
