import type { DisplayNode, DisplayOptions, LineKind } from "./display.ts";
import { INTERACTIVE_ROLES, isPresentational } from "./roles.ts";
import type { VirtualNode } from "./virtual-node.ts";

/** Text lines longer than this are cut: a page's prose is context, not something to act on. */
export const MAX_TEXT_CHARS = 500;
export const MAX_NAME_CHARS = 200;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function normalize(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function quote(text: string): string {
  return `"${clip(normalize(text), MAX_NAME_CHARS).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function statesText(node: VirtualNode): string {
  const s = node.states;
  if (!s) return "";
  let out = "";
  if (s.checked === true) out += " [checked]";
  else if (s.checked === "mixed") out += " [checked=mixed]";
  if (s.disabled) out += " [disabled]";
  if (s.expanded === true) out += " [expanded]";
  else if (s.expanded === false) out += " [expanded=false]";
  if (s.selected) out += " [selected]";
  if (s.pressed === true) out += " [pressed]";
  else if (s.pressed === "mixed") out += " [pressed=mixed]";
  if (s.level !== undefined) out += ` [level=${s.level}]`;
  if (s.required) out += " [required]";
  if (s.covered) out += " [covered]";
  if (s.shownOn) out += ` [shown on ${s.shownOn}]`;
  if (s.secret) out += " [secret]";
  return out;
}

/** One node's line; `inlineText` is a lone text child printed after the colon. */
export function formatLine(node: VirtualNode, opts: DisplayOptions = {}, inlineText?: string): string {
  if (node.role === "text") return `- text: ${clip(normalize(node.text ?? ""), MAX_TEXT_CHARS)}`;
  let line = `- ${node.role}`;
  if (node.name) line += ` ${quote(node.name)}`;
  if (node.ref) line += ` [ref=${node.ref}]`;
  line += statesText(node);
  if (opts.includeBoxes && node.box) {
    const b = node.box;
    line += ` [box=${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.width)},${Math.round(b.height)}]`;
  }
  if (node.summary) line += ` (${node.summary.total} items, ${node.summary.shown} shown)`;
  if (node.href) line += ` -> ${node.href}`;
  const after = node.value ?? inlineText;
  if (after !== undefined && after !== "") line += `: ${clip(normalize(after), MAX_TEXT_CHARS)}`;
  return line;
}

function kindOf(node: VirtualNode): LineKind {
  if (node.ref || INTERACTIVE_ROLES.has(node.role)) return "interactive";
  if (node.role === "heading") return "heading";
  if (node.role === "text") return "text";
  return "structure";
}

/** A container that adds nothing to read or act on: its children take its place. */
function isTransparent(node: VirtualNode): boolean {
  if (node.ref || node.name || node.frame || node.value !== undefined || node.summary) return false;
  return node.role === "generic" || isPresentational(node.role);
}

const NO_SPACE_BEFORE = /^[.,;:!?)\]}%]/;
const NO_SPACE_AFTER = /[([{]$/;

function joinText(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return NO_SPACE_BEFORE.test(b) || NO_SPACE_AFTER.test(a) ? a + b : `${a} ${b}`;
}

interface Counter {
  order: number;
}

/** Flattened children of a node, with adjacent text runs merged into one text node. */
function flatChildren(children: VirtualNode[] | undefined, out: VirtualNode[] = []): VirtualNode[] {
  for (const child of children ?? []) {
    if (child.role === "text") {
      const text = normalize(child.text ?? "");
      if (!text) continue;
      const last = out[out.length - 1];
      if (last && last.role === "text") {
        out[out.length - 1] = { ...last, text: joinText(last.text ?? "", text), vp: Math.min(last.vp ?? 0, child.vp ?? 0) };
      } else out.push({ ...child, text });
    } else if (isTransparent(child)) {
      flatChildren(child.children, out);
    } else out.push(child);
  }
  return out;
}

/** The text a reader of these lines sees: text runs and names, in order (a name stands for its children). */
function contentOf(nodes: VirtualNode[], acc: string[] = []): string {
  for (const n of nodes) {
    if (acc.length > 200) break;
    if (n.role === "text") acc.push(n.text ?? "");
    else if (n.name) acc.push(n.name);
    else if (n.value) acc.push(n.value);
    else contentOf(flatChildren(n.children), acc);
  }
  return acc.reduce(joinText, "");
}

/**
 * Whether a name says what the content says. A name from content over the walker's length limit comes cut,
 * ending in "…": it still repeats content that begins with it (a mail row of 230 characters printed its
 * text twice, 2 x ~55 tokens a row, where a shorter row printed it once).
 */
function repeats(name: string, content: string): boolean {
  const n = normalize(name);
  const c = normalize(content);
  if (n === c) return true;
  const cut = n.endsWith("…") ? n.slice(0, -1).trimEnd() : "";
  return cut.length > 0 && c.startsWith(cut);
}

function toDisplay(node: VirtualNode, opts: DisplayOptions, counter: Counter, vpParent: number): DisplayNode {
  const order = counter.order++;
  const vp = node.vp ?? vpParent;
  let kids = flatChildren(node.children);
  // Name from content repeats the content: `- heading "Pricing"` needs no `- text: Pricing` below it.
  if (node.name && kids.length > 0 && kids.every((k) => k.role === "text")) {
    const joined = kids.map((k) => k.text ?? "").reduce(joinText, "");
    if (normalize(joined) === normalize(node.name)) kids = [];
  }
  // ... and a row named from its cells, or a cell from its link, says it again below: the children say it once.
  const printed = node.name && kids.length > 0 && repeats(node.name, contentOf(kids)) ? { ...node, name: undefined } : node;
  let inlineText: string | undefined;
  const only = kids[0];
  if (kids.length === 1 && only && only.role === "text" && node.value === undefined && node.role !== "iframe") {
    inlineText = only.text;
    kids = [];
  }
  const { children: _children, ...source } = node;
  return {
    line: formatLine(printed, opts, inlineText),
    kind: kindOf(node),
    vp,
    order,
    source: inlineText === undefined ? source : { ...source, children: [{ role: "text", text: inlineText }] },
    children: kids.map((k) => toDisplay(k, opts, counter, vp)),
  };
}

/** The root's own line is never printed (it is the document); its flattened children are the top level. */
export function buildDisplay(root: VirtualNode, opts: DisplayOptions = {}): DisplayNode[] {
  const counter: Counter = { order: 0 };
  return flatChildren([root]).map((n) => toDisplay(n, opts, counter, root.vp ?? 0));
}

export function renderDisplay(nodes: DisplayNode[], depth = 0, out: string[] = []): string[] {
  const indent = "  ".repeat(depth);
  for (const n of nodes) {
    out.push(indent + n.line);
    renderDisplay(n.children, depth + 1, out);
  }
  return out;
}

/** The JSON form of what was printed, for programs: same nodes, same refs, no flattened containers. */
export function displayToTree(nodes: DisplayNode[]): VirtualNode[] {
  return nodes.map((n) => {
    const kids = displayToTree(n.children);
    const base = n.source;
    if (kids.length === 0) return base;
    return { ...base, children: [...(base.children ?? []), ...kids] };
  });
}

export function countRefs(nodes: DisplayNode[]): number {
  let count = 0;
  for (const n of nodes) {
    if (n.source.ref) count++;
    count += countRefs(n.children);
  }
  return count;
}
