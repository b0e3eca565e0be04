import { composedParent, deepActiveElement, isElement, windowOf } from "./deep-dom.ts";
import type { ActionPoint } from "./actionability.ts";

// Synthetic pointer and mouse sequences in the order Chromium fires them for a real mouse. Untrusted `click`
// events still run activation behaviour (checkbox toggles, links follow, submit buttons submit, labels forward),
// so the page sees the same default effects as from a user.

type Kind = "pointer" | "mouse";
interface Step {
  type: string;
  kind: Kind;
  bubbles?: boolean;
  buttons?: number;
  detail?: number;
}

// The element last hovered in this frame, so moving elsewhere sends it mouseout/mouseleave like a real pointer.
let hovered: WeakRef<Element> | null = null;

function fire(target: Element, point: ActionPoint, step: Step, modifiers: Partial<MouseEventInit> = {}): boolean {
  const view = windowOf(target);
  const init: PointerEventInit = {
    bubbles: step.bubbles ?? true,
    cancelable: step.bubbles ?? true,
    composed: true,
    view,
    clientX: point.x,
    clientY: point.y,
    screenX: point.x + view.screenX,
    screenY: point.y + view.screenY,
    button: 0,
    buttons: step.buttons ?? 0,
    detail: step.detail ?? 0,
    ...modifiers,
  };
  const event =
    step.kind === "pointer"
      ? new view.PointerEvent(step.type, { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true })
      : new view.MouseEvent(step.type, init);
  return target.dispatchEvent(event);
}

/** The real pointer was moved onto `el` (real-pointer.ts): synthetic moves go on from there. */
export function pointerIsOn(el: Element): void {
  hovered = new WeakRef(el);
}

/** Move the pointer onto the point's target: out/leave for what it left, then over/enter/move, as hover does. */
export function pointerMove(point: ActionPoint): void {
  const t = point.target;
  const prev = hovered?.deref();
  hovered = new WeakRef(t);
  const chain = ancestorsOuterFirst(t);
  const prevChain = prev && prev !== t && prev.isConnected ? ancestorsOuterFirst(prev) : [];
  const kept = new Set(chain.filter((el) => prevChain.includes(el)));
  if (prev && prevChain.length) {
    fire(prev, point, { type: "pointerout", kind: "pointer" });
    for (const el of prevChain.filter((e) => !kept.has(e)).reverse()) {
      fire(el, point, { type: "pointerleave", kind: "pointer", bubbles: false });
    }
    fire(prev, point, { type: "mouseout", kind: "mouse" });
    for (const el of prevChain.filter((e) => !kept.has(e)).reverse()) {
      fire(el, point, { type: "mouseleave", kind: "mouse", bubbles: false });
    }
  }
  // enter/leave do not bubble: each newly entered ancestor gets its own, so a hover menu on a parent opens.
  const entered = prev === t ? [] : chain.filter((el) => !kept.has(el));
  if (prev !== t) fire(t, point, { type: "pointerover", kind: "pointer" });
  for (const el of entered) fire(el, point, { type: "pointerenter", kind: "pointer", bubbles: false });
  if (prev !== t) fire(t, point, { type: "mouseover", kind: "mouse" });
  for (const el of entered) fire(el, point, { type: "mouseenter", kind: "mouse", bubbles: false });
  fire(t, point, { type: "pointermove", kind: "pointer" });
  fire(t, point, { type: "mousemove", kind: "mouse" });
}

/** One full click: move, down, focus, up, click. `detail` is the click count (2 for the second of a double click). */
export function pointerClick(point: ActionPoint, detail = 1, modifiers: Partial<MouseEventInit> = {}): void {
  const t = point.target;
  if (detail === 1) pointerMove(point);
  const downOk = fire(t, point, { type: "pointerdown", kind: "pointer", buttons: 1 }, modifiers);
  const mouseDownOk = downOk && fire(t, point, { type: "mousedown", kind: "mouse", buttons: 1, detail }, modifiers);
  if (mouseDownOk) focusForClick(t);
  fire(t, point, { type: "pointerup", kind: "pointer" }, modifiers);
  fire(t, point, { type: "mouseup", kind: "mouse", detail }, modifiers);
  if (t.isConnected) fire(t, point, { type: "click", kind: "mouse", detail }, modifiers);
}

export function pointerDblclick(point: ActionPoint): void {
  pointerClick(point, 1);
  pointerClick(point, 2);
  if (point.target.isConnected) fire(point.target, point, { type: "dblclick", kind: "mouse", detail: 2 });
}

function ancestorsOuterFirst(el: Element): Element[] {
  const chain: Element[] = [];
  for (let n: Element | null = el; n; n = composedParent(n)) chain.push(n);
  return chain.reverse();
}

const FOCUSABLE = "a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]";

/** mousedown focuses the nearest focusable ancestor, as the browser's default action does. */
function focusForClick(target: Element): void {
  for (let n: Element | null = target; n; n = composedParent(n)) {
    if (isElement(n) && n.matches(FOCUSABLE) && !n.matches(":disabled") && n.getAttribute("contenteditable") !== "false") {
      if (deepActiveElement(n.ownerDocument) !== n) (n as HTMLElement).focus({ preventScroll: true });
      return;
    }
  }
}
