import type { DisplayNode, DisplayOptions } from "./display.ts";
import { formatLine } from "./render.ts";
import { tokensToChars } from "@crumbs/schemas/tokens";
import { addPaneNotes, indexByOrder, MAX_PANE_NOTES, orders, PANE_NOTE_CHARS } from "./pane-notes.ts";

export const DEFAULT_MAX_TOKENS = 4000;
/** A run of more siblings than this, mostly of one role, is summarised when the page is over budget. */
export const REPEAT_THRESHOLD = 20;
export const REPEAT_SHOWN = 20;
/** Within this many px of the viewport counts as "near": one scroll away on a typical screen. */
export const NEAR_VIEWPORT_PX = 1000;
/** Room kept for the last line, which says what was left out. */
const NOTE_RESERVE_CHARS = 260;


export interface BudgetResult {
  nodes: DisplayNode[];
  truncated: boolean;
  omitted: { lines: number; interactive: number; summarised: number };
}

function lineCost(n: DisplayNode, depth: number): number {
  return depth * 2 + n.line.length + 1;
}

function totalCost(nodes: DisplayNode[], depth = 0): number {
  let sum = 0;
  for (const n of nodes) sum += lineCost(n, depth) + totalCost(n.children, depth + 1);
  return sum;
}

function countLines(nodes: DisplayNode[], pred: (n: DisplayNode) => boolean = () => true): number {
  let c = 0;
  for (const n of nodes) c += (pred(n) ? 1 : 0) + countLines(n.children, pred);
  return c;
}

/** Keeps only what intersects the viewport (and the ancestors that give it context). */
export function filterViewport(nodes: DisplayNode[]): DisplayNode[] {
  const out: DisplayNode[] = [];
  for (const n of nodes) {
    const children = filterViewport(n.children);
    if (n.vp === 0 || children.length > 0) out.push({ ...n, children });
  }
  return out;
}

function dominantRole(children: DisplayNode[]): { role: string; count: number } {
  const counts = new Map<string, number>();
  for (const c of children) counts.set(c.source.role, (counts.get(c.source.role) ?? 0) + 1);
  let best = { role: "", count: 0 };
  for (const [role, count] of counts) if (count > best.count) best = { role, count };
  return best;
}

interface Summarised {
  children: DisplayNode[];
  summary?: { total: number; shown: number };
}

/**
 * Long runs of similar siblings (result lists, table rows) keep REPEAT_SHOWN items: those in the viewport
 * first, then the first ones in document order, so the same page always keeps the same items.
 */
function summariseChildren(children: DisplayNode[]): Summarised {
  const { role, count } = dominantRole(children);
  if (count <= REPEAT_THRESHOLD || count < children.length * 0.8) return { children };
  const repeated = children.filter((c) => c.source.role === role);
  const keep = new Set<DisplayNode>(repeated.filter((c) => c.vp === 0).slice(0, REPEAT_SHOWN));
  for (const c of repeated) {
    if (keep.size >= REPEAT_SHOWN) break;
    keep.add(c);
  }
  return {
    children: children.filter((c) => c.source.role !== role || keep.has(c)),
    summary: { total: count, shown: keep.size },
  };
}

function summariseNode(n: DisplayNode, opts: DisplayOptions): DisplayNode {
  const { children, summary } = summariseChildren(n.children.map((c) => summariseNode(c, opts)));
  if (!summary) return { ...n, children };
  const source = { ...n.source, summary };
  return { ...n, source, line: formatLine(source, opts), children };
}

/** At the top level there is no parent line to annotate, so a synthetic text line carries the summary. */
function summariseTop(nodes: DisplayNode[], opts: DisplayOptions): DisplayNode[] {
  const { children, summary } = summariseChildren(nodes.map((n) => summariseNode(n, opts)));
  const first = children[0];
  if (!summary || !first) return children;
  const text = `(${summary.total} similar items, ${summary.shown} shown)`;
  const note: DisplayNode = {
    line: `- text: ${text}`,
    kind: "text",
    vp: first.vp,
    order: first.order - 0.5,
    source: { role: "text", text, summary },
    synthetic: true,
    children: [],
  };
  return [note, ...children];
}

function summarisedAway(nodes: DisplayNode[]): number {
  let c = 0;
  for (const n of nodes) {
    if (n.source.summary) c += n.source.summary.total - n.source.summary.shown;
    c += summarisedAway(n.children);
  }
  return c;
}

interface Flat {
  node: DisplayNode;
  depth: number;
  parent: Flat | undefined;
  rank: number;
}

/** Lower is kept first: interactive in the viewport, then headings and near controls, then the rest. */
function rankOf(n: DisplayNode): number {
  const inView = n.vp === 0;
  const near = n.vp <= NEAR_VIEWPORT_PX;
  if (n.kind === "interactive" && inView) return 0;
  if (n.kind === "heading" && inView) return 1;
  if (n.kind === "interactive" && near) return 2;
  if (inView) return 3;
  if (n.kind === "heading") return 4;
  if (near) return 5;
  if (n.kind === "interactive") return 6;
  return 7;
}

function flatten(nodes: DisplayNode[], depth: number, parent: Flat | undefined, out: Flat[]): Flat[] {
  for (const node of nodes) {
    const f: Flat = { node, depth, parent, rank: rankOf(node) };
    out.push(f);
    flatten(node.children, depth + 1, f, out);
  }
  return out;
}

function rebuild(nodes: DisplayNode[], kept: Set<DisplayNode>): DisplayNode[] {
  return nodes.filter((n) => kept.has(n)).map((n) => ({ ...n, children: rebuild(n.children, kept) }));
}

/** Greedy by rank; a kept line brings its ancestors, so every line keeps its context. Deterministic. */
function selectWithin(nodes: DisplayNode[], maxChars: number): Set<DisplayNode> {
  const flat = flatten(nodes, 0, undefined, []);
  const sorted = flat
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.rank - b.f.rank || a.f.node.vp - b.f.node.vp || a.i - b.i)
    .map((x) => x.f);
  const kept = new Set<DisplayNode>();
  let used = 0;
  for (const f of sorted) {
    if (kept.has(f.node)) continue;
    let cost = 0;
    const chain: Flat[] = [];
    for (let p: Flat | undefined = f; p && !kept.has(p.node); p = p.parent) {
      chain.push(p);
      cost += lineCost(p.node, p.depth);
    }
    if (used + cost > maxChars) continue;
    used += cost;
    for (const c of chain) kept.add(c.node);
  }
  return kept;
}

export function noteLine(r: BudgetResult["omitted"], maxTokens: number): string {
  const parts = [`${r.lines} lines left out (${r.interactive} interactive)`];
  if (r.summarised > 0) parts.push(`${r.summarised} repeated items summarised`);
  return `- note: cut to fit ${maxTokens} tokens: ${parts.join(", ")}; scroll, or snapshot with root_ref or a larger max_tokens, to see more`;
}

/**
 * The deterministic cut: if the whole tree fits, it is returned as is; otherwise repeated siblings are
 * summarised, and if that is still too much, lines are kept by rank until the budget is spent.
 */
export function applyBudget(nodes: DisplayNode[], maxTokens: number, opts: DisplayOptions = {}): BudgetResult {
  const maxChars = tokensToChars(maxTokens);
  const noCut = { lines: 0, interactive: 0, summarised: 0 };
  if (totalCost(nodes) <= maxChars) return { nodes, truncated: false, omitted: noCut };

  const allLines = countLines(nodes);
  const allInteractive = countLines(nodes, (n) => n.kind === "interactive");
  const summarised = summariseTop(nodes, opts);
  let kept = summarised;
  const original = indexByOrder(nodes);
  const panes = Math.min([...original.values()].filter((n) => n.source.scrollable).length, MAX_PANE_NOTES);
  const budget = maxChars - NOTE_RESERVE_CHARS - panes * PANE_NOTE_CHARS;
  if (totalCost(summarised) > budget) kept = rebuild(summarised, selectWithin(summarised, budget));
  kept = addPaneNotes(kept, original, orders(kept), { n: MAX_PANE_NOTES });
  const keptLines = countLines(kept, (n) => !n.synthetic);
  const keptInteractive = countLines(kept, (n) => n.kind === "interactive");
  return {
    nodes: kept,
    truncated: true,
    omitted: {
      lines: allLines - keptLines,
      interactive: allInteractive - keptInteractive,
      summarised: summarisedAway(summarised),
    },
  };
}
