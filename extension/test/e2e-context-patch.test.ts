import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMergePatch, MERGE_PATCH_CONTENT_TYPE } from "@crumbs/schemas";
import { recordSentPatches, takeSentPatches } from "./e2e/sent-patches.ts";
import { livingContext, startE2E, TOKEN, waitForContext, type E2E } from "./e2e/stack.ts";

// The living page context sends only what changed: after its first full write each update is a JSON
// merge patch, and what the API stores is still the whole capture. The PATCH bodies are counted in
// the worker, as they leave it (its fetch is wrapped, nothing else changes).

let e: E2E;
beforeAll(async () => {
  e = await startE2E();
  await e.configure();
});
afterAll(async () => {
  await e?.close();
});

type Ctx = { url: string; viewport: { scrollY: number }; snapshot: { text: string }; session: { capturedAt: string } };
const ctx = (b: { context: Record<string, unknown> }) => b.context as unknown as Ctx;

describe("page-context updates as merge patches", () => {
  it("sends merge patches smaller than the full context, and the stored breadcrumb is the full capture", async () => {
    const page = await e.open("article.html");
    const first = await waitForContext(e, (b) => ctx(b).url === e.url("article.html"), "context of article.html");

    // Count every PATCH the worker sends from here on.
    await recordSentPatches(e);

    const rounds = 4;
    for (let n = 1; n <= rounds; n++) {
      await page.evaluate((k) => (window as unknown as { addSection(n: number): void }).addSection(k), n);
      await waitForContext(e, (b) => ctx(b).snapshot.text.includes(`Added paragraph ${n}.5`), `context with section ${n}`);
    }
    const sent = await takeSentPatches(e);
    const merges = sent.filter((s) => s.type === MERGE_PATCH_CONTENT_TYPE);
    expect(sent.filter((s) => s.status !== 200)).toEqual([]);
    expect(merges.length).toBe(sent.length);
    expect(merges.length).toBeGreaterThanOrEqual(rounds);

    // Each version written by a merge patch is its previous version with the patch applied, and the
    // last one shows the page as it is now: the new text, the scroll offset, a fresh capture.
    const last = (await livingContext(e))!;
    const history = (await (
      await fetch(`${e.api.url}/v1/breadcrumbs/${last.id}/history?limit=500`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { items: { version: number; title: string; tags: string[]; context: Record<string, unknown> }[] };
    const byVersion = new Map(history.items.map((h) => [h.version, h]));
    const firstMerged = last.version - merges.length + 1;
    expect(firstMerged).toBeGreaterThan(first.version - 1);
    let fullBytes = 0;
    merges.forEach((m, i) => {
      const before = byVersion.get(firstMerged + i - 1)!;
      const after = byVersion.get(firstMerged + i)!;
      const patch = JSON.parse(m.body) as { context?: Record<string, unknown> };
      expect(after.context).toEqual(applyMergePatch(before.context, patch.context ?? {}));
      // What the same update costs as a full write (the body the extension sent before merge patches).
      const full = new TextEncoder().encode(JSON.stringify({ title: after.title, tags: after.tags, context: after.context })).length;
      fullBytes += full;
      // Strings are replaced whole by a merge patch, so a text change re-sends the snapshot text and
      // the main text in full; what it saves is every field that did not change.
      expect(m.bytes).toBeLessThan(full);
    });
    const mergeBytes = merges.reduce((a, m) => a + m.bytes, 0);
    console.log(`${merges.length} updates: ${mergeBytes} bytes as merge patches, ${fullBytes} as full writes (${(fullBytes / mergeBytes).toFixed(1)}x)`);

    const scrollY = await page.evaluate(() => Math.round(window.scrollY));
    expect(ctx(last).viewport.scrollY).toBe(scrollY);
    expect(ctx(last).snapshot.text).toContain(`Added paragraph ${rounds}.5`);
    expect(Date.parse(ctx(last).session.capturedAt)).toBeGreaterThan(Date.parse(ctx(first).session.capturedAt));
    await page.close();
  });
});
