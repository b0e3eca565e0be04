import { ActionError } from "../../shared/action-error.ts";
import { composedContains, composedParent, deepElementFromPoint, isElement } from "./deep-dom.ts";
import { describeElement, isEditable, isEnabled, isLabelOf, isVisible } from "./element-state.ts";

// Playwright-style actionability: before acting, the element must be attached, visible, stable, enabled
// (editable for input) and be what the pointer would actually hit at its center. Checks are retried until a
// deadline because pages animate and re-render; the last failing reason becomes the error message.

export interface ActionabilityOptions {
  enabled?: boolean;
  editable?: boolean;
  /** check that the element receives pointer events at its center (clicks, hovers) */
  hitTest?: boolean;
  timeoutMs?: number;
  /** The control acted on through `el` (a hidden input through its label): its enabled state is the one checked. */
  control?: Element;
}

export interface ActionPoint {
  /** viewport coordinates in the element's own frame */
  x: number;
  y: number;
  /** the element the pointer hits: `el`, a descendant of it, or a label that activates it */
  target: Element;
}

export const DEFAULT_ACTION_TIMEOUT_MS = 2_000;

export function staleError(): ActionError {
  return new ActionError(
    "stale_ref",
    "the element is no longer in the page (it was removed or re-rendered); take a new snapshot and use its refs",
  );
}

/** Wait until `el` can receive the action; throws `stale_ref` or `not_actionable` naming the reason. */
export async function waitForActionable(el: Element, opts: ActionabilityOptions = {}): Promise<ActionPoint> {
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_ACTION_TIMEOUT_MS);
  let reason = "";
  for (let attempt = 0; ; attempt++) {
    if (!el.isConnected) throw staleError();
    const result = await checkOnce(el, opts);
    if (typeof result !== "string") return result;
    reason = result;
    if (Date.now() >= deadline) break;
    await sleep(attempt < 3 ? 20 : 100);
  }
  throw new ActionError("not_actionable", `${describeElement(el)} is not actionable: ${reason}`);
}

async function checkOnce(el: Element, opts: ActionabilityOptions): Promise<ActionPoint | string> {
  if (!isVisible(el)) return "it is not visible (hidden, zero size or display:none)";
  if (opts.enabled !== false && !isEnabled(opts.control ?? el)) return "it is disabled";
  if (opts.editable && !isEditable(el)) return "it is not editable (read-only or not a text field)";
  scrollIntoViewIfNeeded(el);
  const before = el.getBoundingClientRect();
  await nextFrame(el);
  if (!el.isConnected) throw staleError();
  const rect = el.getBoundingClientRect();
  if (before.x !== rect.x || before.y !== rect.y || before.width !== rect.width || before.height !== rect.height) {
    return "it is still moving (animation or layout shift)";
  }
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  if (opts.hitTest === false) return { x, y, target: el };
  const hit = hitTest(el, x, y);
  if (typeof hit === "string") return hit;
  return { x, y, target: hit };
}

/** The element under the point if the pointer would reach `el` there, else why not. */
export function hitTest(el: Element, x: number, y: number): Element | string {
  const doc = el.ownerDocument;
  const view = doc.defaultView;
  if (view && (x < 0 || y < 0 || x > view.innerWidth || y > view.innerHeight)) {
    return "its center is outside the viewport and scrolling did not bring it in";
  }
  const hit = deepElementFromPoint(doc, x, y);
  if (!hit) return "nothing is hit at its center";
  if (!receives(el, hit)) return `it is covered by ${describeElement(coveringRoot(el, hit))}`;
  // A same-origin iframe can itself be covered in its parent document.
  let frameWin: Window | null = view;
  let px = x;
  let py = y;
  while (frameWin && frameWin !== frameWin.parent) {
    let frame: Element | null = null;
    try {
      frame = frameWin.frameElement;
    } catch {
      frame = null;
    }
    if (!frame || !isElement(frame)) break; // cross-origin parent: the parent's own content script is not asked
    const fr = frame.getBoundingClientRect();
    const style = frame.ownerDocument.defaultView?.getComputedStyle(frame);
    px += fr.left + frame.clientLeft + parseFloat(style?.paddingLeft ?? "0");
    py += fr.top + frame.clientTop + parseFloat(style?.paddingTop ?? "0");
    const parentHit = deepElementFromPoint(frame.ownerDocument, px, py);
    if (parentHit !== frame) {
      return `its frame is covered by ${parentHit ? describeElement(parentHit) : "nothing (outside the viewport)"}`;
    }
    frameWin = frame.ownerDocument.defaultView;
  }
  return hit;
}

function receives(el: Element, hit: Element): boolean {
  if (composedContains(el, hit)) return true;
  // Clicking a control's label activates the control (custom checkboxes hide the input under it).
  for (let n: Element | null = hit; n; n = n.parentElement) {
    if (isLabelOf(n, el)) return true;
  }
  return false;
}

/** Names the covering element: the hit itself, or its nearest ancestor with an id or class (a bare span says little). */
function coveringRoot(el: Element, hit: Element): Element {
  let top = hit;
  while (!top.id && !top.getAttribute("class")) {
    const parent = top.parentElement;
    if (!parent || composedContains(parent, el) || parent === el.ownerDocument.body) break;
    top = parent;
  }
  return top;
}

/**
 * Brings the element into view when the viewport or any box that clips it (a dialog's scrolling body, a
 * pane) hides any of it: scrollIntoView scrolls every scrolling ancestor, so an option below the fold of
 * a dialog's list is scrolled up in the list before the hit test asks what is over it.
 */
export function scrollIntoViewIfNeeded(el: Element): void {
  const rect = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  if (!view) return;
  const inside = rect.top >= 0 && rect.left >= 0 && rect.bottom <= view.innerHeight && rect.right <= view.innerWidth;
  if (!inside || clippedByAncestor(el, rect)) el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
}

/** Whether a box around the element that clips its overflow (scrolling or hidden) cuts part of it off. */
function clippedByAncestor(el: Element, rect: DOMRect): boolean {
  const view = el.ownerDocument.defaultView;
  for (let n = composedParent(el); n && n !== el.ownerDocument.documentElement; n = composedParent(n)) {
    const style = view?.getComputedStyle(n);
    if (!style || (style.overflowX === "visible" && style.overflowY === "visible")) continue;
    const box = n.getBoundingClientRect();
    // The padding box: borders and scroll bars are not where content shows.
    const top = box.top + n.clientTop;
    const left = box.left + n.clientLeft;
    const clipsY = style.overflowY !== "visible" && (rect.top < top - 1 || rect.bottom > top + n.clientHeight + 1);
    const clipsX = style.overflowX !== "visible" && (rect.left < left - 1 || rect.right > left + n.clientWidth + 1);
    if (clipsY || clipsX) return true;
    if (style.position === "fixed") break;
  }
  return false;
}

/** One rendering frame, bounded: background tabs throttle requestAnimationFrame. */
export function nextFrame(el?: Element): Promise<void> {
  const view = el?.ownerDocument.defaultView ?? window;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    view.requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
