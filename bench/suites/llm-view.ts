import { REFERENCE_PAGE_CONTEXT, REFERENCE_PAGE_CONTEXT_KEY, REFERENCE_PAGE_CONTEXT_TAGS } from "@crumbs/schemas";
import type { Suite } from "../types.ts";
import { round } from "../stats.ts";
import { higherIsBetter } from "../lib/figures.ts";
import { closedLoop, type LoadResult } from "../lib/load.ts";
import { startStack } from "../lib/stack.ts";

const CLIENTS = 16;

function merge(parts: LoadResult[]): { perSecond: number; p50: number; p99: number } {
  const ops = parts.reduce((n, p) => n + p.ops, 0);
  const seconds = parts.reduce((n, p) => n + p.seconds, 0);
  return { perSecond: ops / seconds, p50: Math.max(...parts.map((p) => p.p50)), p99: Math.max(...parts.map((p) => p.p99)) };
}

export const llmView: Suite = {
  name: "llm-view",
  description: "GET ?view=llm of the reference page-context breadcrumb per second, beside plain GET",
  async run({ quick, log }) {
    const slice = quick ? 2_000 : 5_000;
    const stack = await startStack();
    try {
      const b = await stack.http.json<{ id: string }>("POST", "/v1/breadcrumbs", 201, {
        body: {
          schema_name: "browser.page.context.v1",
          title: String(REFERENCE_PAGE_CONTEXT.title),
          tags: REFERENCE_PAGE_CONTEXT_TAGS,
          key: REFERENCE_PAGE_CONTEXT_KEY,
          context: REFERENCE_PAGE_CONTEXT,
        },
      });
      const get = (path: string) => async () => (await stack.http.request("GET", path)).status === 200;
      const plainOp = get(`/v1/breadcrumbs/${b.id}`);
      const llmOp = get(`/v1/breadcrumbs/${b.id}?view=llm`);
      const view = await stack.http.json<Record<string, unknown>>("GET", `/v1/breadcrumbs/${b.id}?view=llm`, 200);
      if (!("summary" in view) || "dom" in view && JSON.stringify(view).includes('"map"')) throw new Error("llm view is not the reference hints' view");
      await closedLoop({ workers: CLIENTS, durationMs: 1_000, op: plainOp });
      await closedLoop({ workers: CLIENTS, durationMs: 1_000, op: llmOp });
      // Alternate short slices so drifting machine load hits both sides alike.
      const plain: LoadResult[] = [];
      const llm: LoadResult[] = [];
      for (let i = 0; i < 2; i++) {
        plain.push(await closedLoop({ workers: CLIENTS, durationMs: slice, op: plainOp }));
        llm.push(await closedLoop({ workers: CLIENTS, durationMs: slice, op: llmOp }));
      }
      const p = merge(plain);
      const l = merge(llm);
      log(`plain ${Math.round(p.perSecond)}/s, llm ${Math.round(l.perSecond)}/s`);
      return {
        suite: "llm-view",
        figures: [
          higherIsBetter({
            metric: "GET ?view=llm req/s",
            value: round(l.perSecond, 0),
            unit: "/s",
            baseline: { name: "plain GET", value: round(p.perSecond, 0), unit: "/s" },
            goal: ">= 0.8x plain GET",
            minRatio: 0.8,
          }),
        ],
        params: { clients: CLIENTS, slice_ms: slice, plain: p, llm: l, view_bytes: JSON.stringify(view).length },
      };
    } finally {
      await stack.close();
    }
  },
};
