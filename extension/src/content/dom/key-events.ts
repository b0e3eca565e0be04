import { deepActiveElement, deepElements, windowOf } from "./deep-dom.ts";
import { isEnabled, isTextEntry, isVisible } from "./element-state.ts";
import { deleteAtCaret, insertAtCaret, selectAllContents } from "./input-events.ts";
import { chordText, keyDef, type Chord, type KeyDef, type Modifier } from "./keyboard.ts";

// Synthetic key events do not run the browser's default actions (a script's Enter does not submit, Tab does
// not move focus), so after an uncancelled keydown we perform the common defaults ourselves.

type Mods = Set<Modifier>;

function fireKey(target: Element, type: "keydown" | "keypress" | "keyup", def: KeyDef, mods: Mods): boolean {
  const view = windowOf(target);
  const charCode = type === "keypress" ? (def.text ?? "").charCodeAt(0) || 0 : 0;
  const keyCode = type === "keypress" ? charCode : def.keyCode;
  const event = new view.KeyboardEvent(type, {
    key: def.key,
    code: def.code,
    keyCode,
    charCode,
    which: keyCode,
    location: 0,
    ctrlKey: mods.has("Control"),
    shiftKey: mods.has("Shift"),
    altKey: mods.has("Alt"),
    metaKey: mods.has("Meta"),
    bubbles: true,
    cancelable: true,
    composed: true,
    view,
  });
  return target.dispatchEvent(event);
}

function focusTarget(fallback: Element): Element {
  return deepActiveElement(fallback.ownerDocument) ?? fallback.ownerDocument.body ?? fallback;
}

export interface PressResult {
  /** the page cancelled the keydown, so no default action ran */
  prevented: boolean;
}

/** Press one chord on whatever has focus (starting from `start`'s document). */
export function pressChord(start: Element, chord: Chord): PressResult {
  const mods: Mods = new Set();
  for (const m of chord.modifiers) {
    mods.add(m);
    fireKey(focusTarget(start), "keydown", keyDef(m), mods);
  }
  const target = focusTarget(start);
  const downOk = fireKey(target, "keydown", chord.key, mods);
  const text = chordText(chord);
  let clickOnUp: HTMLElement | null = null;
  if (downOk) {
    if (text !== undefined && isTextEntry(target)) {
      if (fireKey(target, "keypress", chord.key, mods)) insertAtCaret(target, text);
    } else if (chord.key.key === "Enter") {
      if (fireKey(target, "keypress", chord.key, mods)) enterDefault(target);
    } else if (chord.key.key === " " && isActivatable(target)) {
      fireKey(target, "keypress", chord.key, mods);
      clickOnUp = target as HTMLElement;
    } else {
      otherDefault(target, chord.key.key, mods);
    }
  }
  const upTarget = focusTarget(start);
  fireKey(upTarget, "keyup", chord.key, mods);
  if (clickOnUp?.isConnected) clickOnUp.click();
  for (const m of [...chord.modifiers].reverse()) {
    mods.delete(m);
    fireKey(focusTarget(start), "keyup", keyDef(m), mods);
  }
  return { prevented: !downOk };
}

const ACTIVATABLE_ROLES = new Set(["button", "checkbox", "radio", "switch", "menuitem", "tab", "link", "option"]);

function isActivatable(el: Element): boolean {
  if (el.localName === "button" || el.localName === "summary") return true;
  if (el.localName === "input") return ["checkbox", "radio", "button", "submit", "reset"].includes((el as HTMLInputElement).type);
  return ACTIVATABLE_ROLES.has(el.getAttribute("role") ?? "");
}

function enterDefault(target: Element): void {
  if (target.localName === "textarea") {
    insertAtCaret(target, "\n");
    return;
  }
  if ((target as HTMLElement).isContentEditable) {
    target.ownerDocument.execCommand("insertLineBreak");
    return;
  }
  if (target.localName === "input") {
    const input = target as HTMLInputElement;
    if (isActivatable(input) && input.type !== "checkbox" && input.type !== "radio") input.click();
    else if (input.form) implicitSubmit(input.form);
    return;
  }
  if (target.localName === "a" || target.localName === "button" || target.localName === "summary" || target.getAttribute("role") === "button" || target.getAttribute("role") === "link") {
    (target as HTMLElement).click();
  }
}

/** HTML implicit submission: click the default button, or submit when one field blocks it. */
export function implicitSubmit(form: HTMLFormElement): void {
  const controls = Array.from(form.elements);
  const defaultButton = controls.find(
    (c) => (c.localName === "button" && ((c as HTMLButtonElement).type || "submit") === "submit") ||
      (c.localName === "input" && ["submit", "image"].includes((c as HTMLInputElement).type)),
  ) as HTMLElement | undefined;
  if (defaultButton) {
    if (!(defaultButton as HTMLButtonElement).disabled) defaultButton.click();
    return;
  }
  const blocking = controls.filter(
    (c) => c.localName === "input" && !["checkbox", "radio", "button", "submit", "reset", "hidden", "image", "file", "range", "color"].includes((c as HTMLInputElement).type),
  );
  if (blocking.length <= 1) form.requestSubmit();
}

function otherDefault(target: Element, key: string, mods: Mods): void {
  const ctrl = mods.has("Control") || mods.has("Meta");
  if (key === "Tab" && !ctrl && !mods.has("Alt")) {
    moveFocus(target, mods.has("Shift") ? -1 : 1);
    return;
  }
  if (!isTextEntry(target)) {
    if (ctrl && key.toLowerCase() === "a") target.ownerDocument.getSelection()?.selectAllChildren(target.ownerDocument.body);
    return;
  }
  if (ctrl && key.toLowerCase() === "a") selectAllContents(target);
  else if (key === "Backspace") deleteAtCaret(target, true);
  else if (key === "Delete") deleteAtCaret(target, false);
  else if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(key)) moveCaret(target, key, mods.has("Shift"));
}

function moveCaret(el: Element, key: string, extend: boolean): void {
  if (el.localName !== "input" && el.localName !== "textarea") return;
  const field = el as HTMLInputElement;
  if (field.selectionStart === null) return;
  const len = field.value.length;
  const start = field.selectionStart;
  const end = field.selectionEnd ?? start;
  const caret = field.selectionDirection === "backward" ? start : end;
  let next = caret;
  if (key === "ArrowLeft") next = extend || start === end ? Math.max(0, caret - 1) : start;
  else if (key === "ArrowRight") next = extend || start === end ? Math.min(len, caret + 1) : end;
  else if (key === "Home") next = 0;
  else next = len;
  if (!extend) field.setSelectionRange(next, next);
  else {
    const anchor = field.selectionDirection === "backward" ? end : start;
    field.setSelectionRange(Math.min(anchor, next), Math.max(anchor, next), next < anchor ? "backward" : "forward");
  }
}

const TABBABLE = "a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable]";

/** Tab order in the focused element's document: positive tabindex first, then document order. */
export function moveFocus(from: Element, step: 1 | -1): void {
  const doc = from.ownerDocument;
  const candidates: HTMLElement[] = [];
  for (const el of deepElements(doc)) {
    if (el.ownerDocument !== doc || !el.matches(TABBABLE)) continue;
    const h = el as HTMLElement;
    if (h.tabIndex < 0 || !isEnabled(el) || !isVisible(el)) continue;
    if (el.localName === "input" && (el as HTMLInputElement).type === "hidden") continue;
    candidates.push(h);
  }
  const positive = candidates.filter((c) => c.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  const order = [...positive, ...candidates.filter((c) => c.tabIndex === 0)];
  if (!order.length) return;
  const idx = order.indexOf(from as HTMLElement);
  const next = idx === -1 ? order[step === 1 ? 0 : order.length - 1]! : order[(idx + step + order.length) % order.length]!;
  next.focus();
  if (next.localName === "input" || next.localName === "textarea") (next as HTMLInputElement).select?.();
}

/** Type one character the way a keyboard does: keydown, keypress, text insertion, keyup. */
export function typeChar(start: Element, ch: string): void {
  if (ch === "\n" || ch === "\r") {
    pressChord(start, { modifiers: [], key: keyDef("Enter") });
    return;
  }
  if (ch === "\t") {
    pressChord(start, { modifiers: [], key: keyDef("Tab") });
    return;
  }
  const def = keyDef(ch);
  const upper = /^[A-Z]$/.test(ch);
  const mods: Mods = new Set(upper ? ["Shift"] : []);
  const target = focusTarget(start);
  if (fireKey(target, "keydown", def, mods) && fireKey(target, "keypress", def, mods)) insertAtCaret(target, ch);
  fireKey(focusTarget(start), "keyup", def, mods);
}
