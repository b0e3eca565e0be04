import { jsonEqual, MERGE_PATCH_CONTENT_TYPE, mergePatchBetween } from "@crumbs/schemas";
import type { Suite } from "../types.ts";
import { percentile, round } from "../stats.ts";
import { lowerIsBetter } from "../lib/figures.ts";
import { pageContext, pageContextTags } from "../lib/page-context.ts";
import { startStack } from "../lib/stack.ts";

/**
 * What one page-context update costs as a full PATCH (the whole context, application/json) and as a
 * merge patch of only what changed (application/merge-patch+json), on the reference page context with
 * the typical change of the write benchmarks: a scroll and a new bit of text (lib/page-context.ts).
 * One client, the two kinds alternating, so both see the same machine.
 */
export const contextPatch: Suite = {
  name: "context-patch",
  description: "bytes and time per page-context update (scroll + text): merge patch beside a full PATCH",
  async run({ quick, log }) {
    const updates = quick ? 100 : 400;
    const stack = await startStack();
    try {
      const create = (n: number) =>
        stack.http.json<{ id: string }>("POST", "/v1/breadcrumbs", 201, {
          body: { schema_name: "browser.page.context.v1", title: "Browser", tags: pageContextTags(n), context: pageContext(n, 1) },
        });
      const [full, merge] = [await create(1), await create(2)];
      const bytes = { full: [] as number[], merge: [] as number[] };
      const ms = { full: [] as number[], merge: [] as number[] };
      const send = async (kind: "full" | "merge", id: string, version: number, body: string, type: string) => {
        const t0 = performance.now();
        const res = await stack.http.request("PATCH", `/v1/breadcrumbs/${id}`, { body, headers: { "if-match": `"${version}"`, "content-type": type } });
        ms[kind].push(performance.now() - t0);
        bytes[kind].push(Buffer.byteLength(body));
        if (res.status !== 200) throw new Error(`${kind} PATCH answered ${res.status}: ${res.body}`);
      };
      for (let v = 2; v <= updates + 1; v++) {
        await send("full", full.id, v - 1, JSON.stringify({ context: pageContext(1, v) }), "application/json");
        const patch = mergePatchBetween(pageContext(2, v - 1), pageContext(2, v));
        await send("merge", merge.id, v - 1, JSON.stringify({ context: patch }), MERGE_PATCH_CONTENT_TYPE);
      }
      // Both breadcrumbs must hold the same page in the end: the merge patches lost nothing.
      const stored = await stack.http.json<{ context: unknown }>("GET", `/v1/breadcrumbs/${merge.id}`, 200);
      if (!jsonEqual(stored.context, pageContext(2, updates + 1))) throw new Error("the merge-patched breadcrumb differs from the full context");
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const b = { full: round(mean(bytes.full), 0), merge: round(mean(bytes.merge), 0) };
      const p50 = { full: round(percentile(ms.full, 50), 2), merge: round(percentile(ms.merge, 50), 2) };
      log(`body ${b.merge} B merge patch, ${b.full} B full; PATCH p50 ${p50.merge} ms merge patch, ${p50.full} ms full`);
      return {
        suite: "context-patch",
        figures: [
          {
            ...lowerIsBetter({ metric: "bytes per page-context update (scroll + text)", value: b.merge, unit: "B", baseline: { name: "full PATCH", value: b.full, unit: "B" }, goal: "<= 0.5x full PATCH" }),
            met: b.merge <= 0.5 * b.full,
          },
          lowerIsBetter({ metric: "PATCH p50, one client", value: p50.merge, unit: "ms", baseline: { name: "full PATCH", value: p50.full, unit: "ms" } }),
        ],
        params: { updates, p99_ms: { full: round(percentile(ms.full, 99), 2), merge: round(percentile(ms.merge, 99), 2) } },
      };
    } finally {
      await stack.close();
    }
  },
};
