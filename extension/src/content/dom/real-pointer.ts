import { POINTER_MESSAGE, type PointerRequest, type PointerResponse } from "../../shared/pointer-message.ts";
import { type ActionPoint, nextFrame, waitForActionable } from "./actionability.ts";
import { transparent } from "./visibility.ts";
import { pointerIsOn, pointerMove } from "./pointer.ts";

// Hover as the user's mouse does it: the worker moves the browser's own pointer (chrome.debugger), so the
// page gets CSS :hover and trusted mouse events; where it cannot (a cross-origin parent frame whose offset
// this frame cannot know, a tab held by DevTools), synthetic events reach the page's JS hover handlers.

/** The point in the top frame's viewport, through same-origin parents; undefined across an origin. */
export function inTopFrame(point: ActionPoint): { x: number; y: number } | undefined {
  let x = point.x;
  let y = point.y;
  let win: Window = point.target.ownerDocument.defaultView ?? window;
  while (win !== win.parent) {
    let frame: Element | null;
    try {
      frame = win.frameElement;
    } catch {
      return undefined;
    }
    if (!frame) return undefined;
    const r = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    x += r.left + frame.clientLeft + parseFloat(style.paddingLeft);
    y += r.top + frame.clientTop + parseFloat(style.paddingTop);
    win = win.parent;
  }
  return { x, y };
}

async function askWorker(x: number, y: number): Promise<boolean> {
  try {
    const res = (await chrome.runtime.sendMessage({ kind: POINTER_MESSAGE, x, y } satisfies PointerRequest)) as PointerResponse | undefined;
    return res?.ok === true;
  } catch {
    return false;
  }
}

/** Moves the pointer onto the point: the real one when the worker can, else synthetic events. Says which. */
export async function hoverAt(point: ActionPoint): Promise<"real" | "synthetic"> {
  const top = inTopFrame(point);
  if (top && (await askWorker(top.x, top.y))) {
    pointerIsOn(point.target);
    await nextFrame(point.target);
    return "real";
  }
  pointerMove(point);
  return "synthetic";
}

/**
 * A control that is transparent until hovered (a row's "Delete") is hovered first, as a user's mouse on
 * the way to it would: the row shows it, and handlers that need the hover state see it.
 */
export async function revealByHover(el: Element, timeoutMs?: number): Promise<void> {
  if (el.localName === "input" || !transparent(el)) return;
  const point = await waitForActionable(el, { hitTest: true, enabled: false, timeoutMs });
  await hoverAt(point);
}
