import { MAX_REF_CANDIDATES } from "@crumbs/schemas/action-result";

// Refs that heal (docs/extension.md, "Refs that heal"): a page that re-renders (React does it all the
// time) replaces the element a ref was taken for with an equal one. The content script keeps, for each
// ref, what identified its element when the snapshot saw it: role, accessible name and place (the
// landmark it was in, the collection item it belonged to, and which of its identical twins it was).
// When the element is gone this decides, from the elements the page has now with that role and name,
// whether exactly one is the same element re-rendered. Anything less certain is not acted on: the
// action fails `stale_ref` with the candidates. Pure: the DOM side (content/dom/refs.ts) gathers.

export interface Place {
  /** The innermost landmark, `main` or `form "Sign in"`; "" for none. */
  scope: string;
  /** Text of the collection item (list item, row, card) it is in; "" for none. */
  item: string;
}

export interface Anchor extends Place {
  role: string;
  name: string;
  /** Its position among elements with the same role, name and place, from 0, and how many there were. */
  index: number;
  count: number;
}

export type HealChoice = { kind: "rebind"; index: number } | { kind: "stale"; candidates: number[] };

/** Elements with the same role, name and place are twins; the index tells them apart. */
export function twinKey(a: { role: string; name: string } & Place): string {
  return `${a.role}\u0000${a.name}\u0000${a.scope}\u0000${a.item}`;
}

/** Fills `index` and `count` of anchors gathered in document order. */
export function numberTwins<T extends Omit<Anchor, "index" | "count">>(anchors: T[]): Array<T & { index: number; count: number }> {
  const counts = new Map<string, number>();
  const withIndex = anchors.map((a) => {
    const key = twinKey(a);
    const index = counts.get(key) ?? 0;
    counts.set(key, index + 1);
    return { ...a, index, count: 0 };
  });
  for (const a of withIndex) a.count = counts.get(twinKey(a))!;
  return withIndex;
}

/**
 * Which of `now` (the page's elements with the anchor's role and name, in document order) is the
 * element the anchor was taken for. The one in the same place when only one is; among identical
 * twins the same position when there are as many twins as before (a list that gained or lost one
 * could put another twin there). Otherwise stale, with the closest candidates first.
 */
export function chooseRebind(old: Anchor, now: Place[]): HealChoice {
  const same = now.map((p, i) => (p.scope === old.scope && p.item === old.item ? i : -1)).filter((i) => i >= 0);
  if (same.length === 1) return { kind: "rebind", index: same[0]! };
  if (same.length > 1 && same.length === old.count && old.index < same.length) return { kind: "rebind", index: same[old.index]! };
  const inScope = now.map((p, i) => (p.scope === old.scope ? i : -1)).filter((i) => i >= 0 && !same.includes(i));
  const rest = now.map((_, i) => i).filter((i) => !same.includes(i) && !inScope.includes(i));
  return { kind: "stale", candidates: [...same, ...inScope, ...rest].slice(0, MAX_REF_CANDIDATES) };
}
