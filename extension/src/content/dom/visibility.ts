/** Rectangle in viewport coordinates; a plain shape so the walker can intersect clip areas cheaply. */
export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function toRect(r: DOMRect): Rect {
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
}

export function intersect(a: Rect, b: Rect): Rect {
  return {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** 0 when the rect intersects the viewport, else how far away it is (px): the budget ranks by this. */
export function viewportDistance(r: Rect, width: number, height: number): number {
  const dx = r.right < 0 ? -r.right : r.left > width ? r.left - width : 0;
  const dy = r.bottom < 0 ? -r.bottom : r.top > height ? r.top - height : 0;
  return Math.round(Math.max(dx, dy));
}

/** Below this size a box shows nothing (the snapshot's visibility rule: width and height > 1 px). */
export const MIN_SIZE = 1;
/** Below this opacity an element is treated as invisible (the snapshot's visibility rule). */
export const MIN_OPACITY = 0.05;

export function hasSize(r: DOMRect): boolean {
  return r.width > MIN_SIZE && r.height > MIN_SIZE;
}

export function clipsOverflow(style: CSSStyleDeclaration): boolean {
  const v = (x: string) => x === "hidden" || x === "clip";
  return v(style.overflowX) || v(style.overflowY);
}

/** The screen-reader-only patterns: `clip: rect(0 0 0 0)` and `clip-path: inset(50%)` hide the box entirely. */
export function clippedAway(style: CSSStyleDeclaration): boolean {
  const clip = style.clip;
  if (clip && clip !== "auto" && /rect\(\s*0(px)?[ ,]+0(px)?[ ,]+0(px)?[ ,]+0(px)?\s*\)/.test(clip)) return true;
  const cp = style.clipPath;
  return !!cp && cp !== "none" && /inset\(\s*(50|100)%/.test(cp);
}

/**
 * Whether a point test at the element's centre hits the element itself (or its label, or a relative):
 * anything else on top means a modal, banner or overlay covers it and a click would land elsewhere.
 */
export function isCovered(el: Element, r: DOMRect, vw: number, vh: number): boolean {
  const x = Math.min(Math.max(r.left + r.width / 2, 0), vw - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), vh - 1);
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint?.(x, y);
  if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return false;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (l.contains(hit) || hit.contains(l)) return false;
  return true;
}
