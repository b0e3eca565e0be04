import type { VirtualNode } from "../../snapshot/virtual-node.ts";
import { normalizeText } from "./accessible-name.ts";

// What the walker makes of an element's already-walked children: its name from their visible text,
// whether they hold something to act on, whether they are a card, and a select's options.

export const MAX_OPTIONS = 50;

/** Name from content, built from the already-walked children: only visible text counts. */
export function contentText(nodes: VirtualNode[], acc: string[] = []): string[] {
  for (const n of nodes) {
    if (acc.length > 40) break;
    if (n.role === "text") acc.push(n.text ?? "");
    else if (n.name) acc.push(n.name);
    else if (n.children) contentText(n.children, acc);
  }
  return acc;
}

export function hasActionOrHeading(nodes: VirtualNode[]): boolean {
  return nodes.some(
    (n) => n.ref !== undefined || n.role === "heading" || n.role === "iframe" || hasActionOrHeading(n.children ?? []),
  );
}

/** Lines a card may have: more is a page section, not a card. */
const MAX_CARD_NODES = 40;

function countNodes(nodes: VirtualNode[], limit: number): number {
  let n = 0;
  for (const k of nodes) {
    n += 1 + countNodes(k.children ?? [], limit - n);
    if (n > limit) break;
  }
  return n;
}

/** One heading near the top, something to act on besides, no card inside, and small. */
export function isCard(kids: VirtualNode[]): boolean {
  const headings = kids.filter((k) => k.role === "heading");
  const first = headings[0];
  if (headings.length !== 1 || !first || kids.indexOf(first) > 1 || kids.length < 2) return false;
  if (kids.some((k) => k.role === "group" || k.role === "article")) return false;
  return hasActionOrHeading(kids.filter((k) => k !== first)) && countNodes(kids, MAX_CARD_NODES) <= MAX_CARD_NODES;
}

export function options(sel: HTMLSelectElement): VirtualNode[] {
  const out: VirtualNode[] = [];
  for (const o of [...sel.options].slice(0, MAX_OPTIONS)) {
    const node: VirtualNode = { role: "option", name: normalizeText(o.label || o.text) };
    if (o.selected) node.states = { selected: true };
    if (o.disabled) node.states = { ...node.states, disabled: true };
    out.push(node);
  }
  return out;
}
