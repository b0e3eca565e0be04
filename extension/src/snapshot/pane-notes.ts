import type { DisplayNode } from "./display.ts";

// A pane that scrolls (its VirtualNode is `scrollable`, with a ref) and lost lines to the budget says so
// inside itself: "(32 more rows below: scroll e41)". The last note line of the snapshot says how much the
// whole page lost; this says where, and which ref brings it into view.

/** Room kept for each scrolling pane's own note, for this many panes. */
export const PANE_NOTE_CHARS = 96;
export const MAX_PANE_NOTES = 10;

/** What a pane's omitted lines are counted in, when most of them are one kind: rows, items, links. */
const UNITS: Record<string, [string, string]> = {
  row: ["row", "rows"],
  listitem: ["item", "items"],
  option: ["option", "options"],
  treeitem: ["item", "items"],
  article: ["article", "articles"],
  link: ["link", "links"],
  button: ["button", "buttons"],
  menuitem: ["item", "items"],
};

interface Inside {
  node: DisplayNode;
  /** Roles of its ancestors inside the pane. */
  within: string[];
}

function descendants(n: DisplayNode, within: string[] = [], out: Inside[] = []): Inside[] {
  for (const c of n.children) {
    out.push({ node: c, within });
    descendants(c, [...within, c.source.role], out);
  }
  return out;
}

export function indexByOrder(nodes: DisplayNode[], out = new Map<number, DisplayNode>()): Map<number, DisplayNode> {
  for (const n of nodes) {
    out.set(n.order, n);
    indexByOrder(n.children, out);
  }
  return out;
}

/** "32 more rows below: scroll e41", or undefined when nothing of the pane was cut. */
function paneNote(pane: DisplayNode, kept: Set<number>): string | undefined {
  const all = descendants(pane);
  const omitted = all.filter((d) => !kept.has(d.node.order) && !d.node.synthetic);
  if (omitted.length === 0) return undefined;
  const counts = new Map<string, number>();
  for (const { node } of omitted) if (UNITS[node.source.role]) counts.set(node.source.role, (counts.get(node.source.role) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  // Items hold lines of their own (a row's cells): a pane that lost mostly rows counts rows.
  const itemLines = top ? omitted.filter((d) => d.node.source.role === top || d.within.includes(top)).length : 0;
  const unitRole = top && itemLines >= omitted.length / 2 ? top : undefined;
  const units = (unitRole ? omitted.filter((d) => d.node.source.role === unitRole) : omitted).map((d) => d.node.order);
  // Above or below what is shown of the same kind (the list around the rows is not a row).
  const keptOrders = all
    .filter((d) => kept.has(d.node.order) && (unitRole ? d.node.source.role === unitRole : d.node.children.length === 0))
    .map((d) => d.node.order);
  // With nothing of it kept, the pane's content is all still to be scrolled through: below.
  const firstKept = keptOrders.length ? Math.min(...keptOrders) : -Infinity;
  const above = units.filter((o) => o < firstKept).length;
  const below = units.length - above;
  const [one, many] = (unitRole && UNITS[unitRole]) || ["line", "lines"];
  const word = (n: number) => (n === 1 ? one : many);
  const parts: string[] = [];
  if (above) parts.push(`${above} more ${word(above)} above`);
  if (below) parts.push(above ? `${below} below` : `${below} more ${word(below)} below`);
  return `(${parts.join(", ")}: scroll ${pane.source.ref})`;
}

/** Each kept pane that lost lines to the cut says how many, and which ref scrolls to them. */
export function addPaneNotes(nodes: DisplayNode[], original: Map<number, DisplayNode>, kept: Set<number>, left: { n: number }): DisplayNode[] {
  return nodes.map((n) => {
    const children = addPaneNotes(n.children, original, kept, left);
    const whole = n.source.scrollable && n.source.ref ? original.get(n.order) : undefined;
    const text = whole && left.n > 0 ? paneNote(whole, kept) : undefined;
    if (!text) return children === n.children ? n : { ...n, children };
    left.n--;
    const note: DisplayNode = { line: `- text: ${text}`, kind: "text", vp: n.vp, order: n.order + 0.25, source: { role: "text", text }, synthetic: true, children: [] };
    return { ...n, children: [...children, note] };
  });
}

export function orders(nodes: DisplayNode[], out = new Set<number>()): Set<number> {
  for (const n of nodes) {
    out.add(n.order);
    orders(n.children, out);
  }
  return out;
}
