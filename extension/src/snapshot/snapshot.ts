import * as z from "@crumbs/schemas/zod-mini";
import { applyBudget, DEFAULT_MAX_TOKENS, filterViewport, noteLine } from "./budget.ts";
import { buildDisplay, countRefs, displayToTree, renderDisplay } from "./render.ts";
import { estimateTokens } from "@crumbs/schemas/tokens";
import type { VirtualNode } from "./virtual-node.ts";
import type { DisplayNode } from "./display.ts";

/** Snapshot options as commands give them (snake_case, like every bus payload). */
export const snapshotOptionsSchema = z.object({
  viewport_only: z._default(z.boolean(), false),
  max_tokens: z._default(z.number().check(z.int(), z.gte(200), z.lte(200_000)), DEFAULT_MAX_TOKENS),
  root_ref: z.optional(z.string().check(z.minLength(1))),
  include_boxes: z._default(z.boolean(), false),
  format: z._default(z.enum(["text", "json"]), "text"),
  /** Also build the page capability descriptor from the same walk (the page context asks for it). */
  pcd: z._default(z.boolean(), false),
});
export type SnapshotOptions = z.infer<typeof snapshotOptionsSchema>;
export type SnapshotOptionsInput = z.input<typeof snapshotOptionsSchema>;

export interface RenderedSnapshot {
  text: string;
  refs: number;
  tokens: number;
  truncated: boolean;
  tree?: VirtualNode[];
}

/** Pure: a VirtualNode tree in, the text the model reads (and the JSON form if asked) out. */
export function renderSnapshot(root: VirtualNode, options: SnapshotOptionsInput = {}): RenderedSnapshot {
  const opts = snapshotOptionsSchema.parse(options);
  const displayOpts = { includeBoxes: opts.include_boxes };
  let nodes = buildDisplay(root, displayOpts);
  // What was left out before the budget: lines outside the viewport (asked for), long selects' options.
  const left = { outside: 0, options: shortened(nodes) };
  if (opts.viewport_only) {
    const all = countAll(nodes);
    nodes = filterViewport(nodes);
    left.outside = all - countAll(nodes);
  }
  const cut = applyBudget(nodes, opts.max_tokens, displayOpts);
  const lines = renderDisplay(cut.nodes);
  if (cut.truncated) lines.push(noteLine(cut.omitted, opts.max_tokens));
  else if (left.outside || left.options) lines.push(leftOutLine(left.outside, left.options));
  const text = lines.join("\n");
  const result: RenderedSnapshot = {
    text,
    refs: countRefs(cut.nodes),
    tokens: estimateTokens(text),
    truncated: cut.truncated || left.outside > 0 || left.options > 0,
  };
  if (opts.format === "json") result.tree = displayToTree(cut.nodes);
  return result;
}

function countAll(nodes: DisplayNode[]): number {
  let n = 0;
  for (const d of nodes) n += 1 + countAll(d.children);
  return n;
}

/** Options the walker left out of long selects (their lines say `(N items, M shown)`). */
function shortened(nodes: DisplayNode[]): number {
  let n = 0;
  for (const d of nodes) n += (d.source.summary ? d.source.summary.total - d.source.summary.shown : 0) + shortened(d.children);
  return n;
}

function leftOutLine(outside: number, options: number): string {
  const parts: string[] = [];
  if (outside) parts.push(`${outside} lines outside the viewport (viewport_only)`);
  if (options) parts.push(`${options} options of long selects`);
  return `- note: left out ${parts.join(", ")}; snapshot without viewport_only, or details of a select, to see more`;
}
