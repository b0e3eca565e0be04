import * as z from "@crumbs/schemas/zod-mini";
import { MAX_QUERY_RESULTS } from "@crumbs/schemas/browser-action";
import { registerAction } from "./registry.ts";
import { buildPageModel } from "../../perception/page-model.ts";
import { DEFAULT_RESULTS, indexPage } from "../../perception/search.ts";
import { walkDocument } from "../dom/walker.ts";
import { pruneRefs } from "../dom/refs.ts";
import type { VirtualNode } from "../../snapshot/virtual-node.ts";

const queryParams = z.object({
  query: z.string().check(z.minLength(1), z.maxLength(200)),
  limit: z.optional(z.number().check(z.int(), z.gte(1), z.lte(MAX_QUERY_RESULTS))),
});

function hasFrames(node: VirtualNode): boolean {
  return node.role === "iframe" || (node.children ?? []).some(hasFrames);
}

// query: the page's elements ranked by words (perception/search.ts), from a fresh walk of this frame
// (the snapshot's walk, so the refs are the snapshot's and act directly). Read-only.
registerAction("query", queryParams, async (params) => {
  const started = performance.now();
  const tree = walkDocument(document, null);
  pruneRefs();
  const result = indexPage(buildPageModel(tree)).search(params.query, params.limit ?? DEFAULT_RESULTS);
  return {
    ...result,
    ...(hasFrames(tree) ? { note: "elements inside iframes are not searched: take a snapshot for them" } : {}),
    took_ms: Math.round((performance.now() - started) * 10) / 10,
  };
});
