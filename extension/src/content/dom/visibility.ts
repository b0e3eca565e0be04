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

export function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** 0 when the rect intersects `view` (the visible area), else how far away it is (px): the budget ranks by this. */
export function viewDistance(r: Rect, view: Rect): number {
  const dx = r.right < view.left ? view.left - r.right : r.left > view.right ? r.left - view.right : 0;
  const dy = r.bottom < view.top ? view.top - r.bottom : r.top > view.bottom ? r.top - view.bottom : 0;
  return Math.round(Math.max(dx, dy));
}

/** Far beyond any page: an axis that does not clip. */
const FAR = 1e9;
export const NO_CLIP: Rect = { left: -FAR, top: -FAR, right: FAR, bottom: FAR };

/**
 * What an element's overflow does to its content, per axis: `hidden`/`clip` cut it at the box, a scrolling
 * axis (auto/scroll with more content than room) lets it be reached by scrolling the element. The axes are
 * apart: `overflow-x: hidden` alone makes the vertical axis scroll (CSS turns its `visible` into `auto`),
 * it never hides what is below.
 */
export interface Overflow {
  clipX: boolean;
  clipY: boolean;
  scrollX: boolean;
  scrollY: boolean;
}

const hides = (v: string) => v === "hidden" || v === "clip";
const scrolls = (v: string) => v === "auto" || v === "scroll";

export function overflowOf(el: Element, style: CSSStyleDeclaration): Overflow {
  const sx = scrolls(style.overflowX);
  const sy = scrolls(style.overflowY);
  return {
    clipX: hides(style.overflowX),
    clipY: hides(style.overflowY),
    scrollX: sx && el.scrollWidth > el.clientWidth + 1,
    scrollY: sy && el.scrollHeight > el.clientHeight + 1,
  };
}

/** The area an element's content may show in (`clip`) and the part of it a user sees now (`view`). */
export interface Area {
  /** Content outside this is cut away by an `overflow: hidden` box and cannot be reached. */
  clip: Rect;
  /** The viewport within every scrolling box around: outside it, content is reached by scrolling. */
  view: Rect;
}

/**
 * The area of an element's children. A hidden axis cuts both; a scrolling axis makes everything along it
 * reachable (whatever boxes around it hide) and narrows what is seen now to the element's box. So a pane
 * that scrolls inside a page fixed to the window (`overflow: hidden` on the page) is read in full.
 */
export function childArea(area: Area, r: Rect, ov: Overflow): Area {
  let { clip, view } = area;
  if (ov.scrollY) {
    clip = { ...clip, top: -FAR, bottom: FAR };
    view = { ...view, top: Math.max(view.top, r.top), bottom: Math.min(view.bottom, r.bottom) };
  } else if (ov.clipY) {
    clip = { ...clip, top: Math.max(clip.top, r.top), bottom: Math.min(clip.bottom, r.bottom) };
    view = { ...view, top: Math.max(view.top, r.top), bottom: Math.min(view.bottom, r.bottom) };
  }
  if (ov.scrollX) {
    clip = { ...clip, left: -FAR, right: FAR };
    view = { ...view, left: Math.max(view.left, r.left), right: Math.min(view.right, r.right) };
  } else if (ov.clipX) {
    clip = { ...clip, left: Math.max(clip.left, r.left), right: Math.min(clip.right, r.right) };
    view = { ...view, left: Math.max(view.left, r.left), right: Math.min(view.right, r.right) };
  }
  return { clip, view };
}

/** Whether the point is in the rect (the rect may be empty: a pane scrolled out of view). */
export function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}

/** Below this size a box shows nothing (the snapshot's visibility rule: width and height > 1 px). */
export const MIN_SIZE = 1;
/** Below this opacity an element is treated as invisible (the snapshot's visibility rule). */
export const MIN_OPACITY = 0.05;

export function hasSize(r: DOMRect): boolean {
  return r.width > MIN_SIZE && r.height > MIN_SIZE;
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
 * Judged only where a click would land: a centre outside `view` (off screen, or scrolled out of its pane)
 * is brought into view before any action, so what is over that point now says nothing.
 */
export function isCovered(el: Element, r: DOMRect, view: Rect): boolean {
  const x = r.left + r.width / 2;
  const y = r.top + r.height / 2;
  if (!contains(view, x, y)) return false;
  const root = el.getRootNode() as Document | ShadowRoot;
  const hit = root.elementFromPoint?.(x, y);
  if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return false;
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of labels) if (l.contains(hit) || hit.contains(l)) return false;
  return true;
}

/** Whether the element or an ancestor is (almost) fully transparent: seen by nobody until that changes. */
export function transparent(el: Element): boolean {
  const view = el.ownerDocument.defaultView;
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (Number(view?.getComputedStyle(n).opacity ?? 1) <= MIN_OPACITY) return true;
  }
  return false;
}
