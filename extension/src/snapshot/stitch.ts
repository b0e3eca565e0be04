import type { VirtualNode } from "./virtual-node.ts";

/** Refs as the agent sees them: `e12` in the top frame, `f7e3` for ref e3 in the frame with id 7. */
const REF = /^(?:f(\d+))?(e\d+)$/;

export function parseRef(ref: string): { frameId: number; local: string } | undefined {
  const m = REF.exec(ref);
  if (!m || !m[2]) return undefined;
  return { frameId: m[1] === undefined ? 0 : Number(m[1]), local: m[2] };
}

export function frameRef(frameId: number, local: string): string {
  return frameId === 0 ? local : `f${frameId}${local}`;
}

export type FramePlaceholder = NonNullable<VirtualNode["frame"]>;

/** The frame placeholders still waiting for content, in document order. */
export function framePlaceholders(node: VirtualNode, out: FramePlaceholder[] = []): FramePlaceholder[] {
  if (node.frame && !node.children) out.push(node.frame);
  for (const c of node.children ?? []) framePlaceholders(c, out);
  return out;
}

export interface ChildFrame {
  frameId: number;
  /** The probe token the frame last received from its parent, if any. */
  probe?: string;
  url: string;
}

/**
 * Which child frame each placeholder shows: by the probe token posted into it, else by a URL that only
 * one unmatched child frame has. Unmatched placeholders stay out of the map.
 */
export function matchFrames(placeholders: FramePlaceholder[], children: ChildFrame[]): Map<string, number> {
  const matched = new Map<string, number>();
  const used = new Set<number>();
  for (const p of placeholders) {
    const hit = children.find((c) => c.probe === p.token && !used.has(c.frameId));
    if (hit) {
      matched.set(p.token, hit.frameId);
      used.add(hit.frameId);
    }
  }
  for (const p of placeholders) {
    if (matched.has(p.token) || !p.src) continue;
    const candidates = children.filter((c) => !used.has(c.frameId) && c.url === p.src);
    const only = candidates[0];
    if (candidates.length === 1 && only) {
      matched.set(p.token, only.frameId);
      used.add(only.frameId);
    }
  }
  return matched;
}

export function prefixRefs(node: VirtualNode, frameId: number): VirtualNode {
  const copy: VirtualNode = { ...node };
  if (node.ref) copy.ref = frameRef(frameId, node.ref);
  if (node.children) copy.children = node.children.map((c) => prefixRefs(c, frameId));
  return copy;
}

/**
 * Puts each frame's subtree under its placeholder. A frame's nodes take the placeholder's distance from
 * the viewport when theirs is unknown, so budgeting ranks them like the rest of the page.
 * A frame that did not answer keeps a text line saying so.
 */
export function stitchFrames(node: VirtualNode, subtrees: ReadonlyMap<string, VirtualNode | string>): VirtualNode {
  if (node.frame && !node.children) {
    const sub = subtrees.get(node.frame.token);
    if (sub === undefined) return node;
    if (typeof sub === "string") return { ...node, children: [{ role: "text", text: `(frame not available: ${sub})` }] };
    const shifted = shiftVp(sub, node.vp ?? 0);
    return { ...node, children: shifted.children ?? [] };
  }
  if (!node.children) return node;
  return { ...node, children: node.children.map((c) => stitchFrames(c, subtrees)) };
}

function shiftVp(node: VirtualNode, base: number): VirtualNode {
  const copy: VirtualNode = { ...node, vp: Math.max(base, node.vp ?? 0) };
  if (node.children) copy.children = node.children.map((c) => shiftVp(c, base));
  return copy;
}
