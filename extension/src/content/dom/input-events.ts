import { deepActiveElement, windowOf } from "./deep-dom.ts";

// Text input that framework-controlled fields accept. React and Vue keep their own copy of an input's value;
// they only notice a change when an `input` event arrives and the DOM value differs from their tracker. The
// prototype's native setter writes the DOM value without going through a framework's instance override (React's
// value tracker), so the next `input` event is seen as a real change. contenteditable editors (ProseMirror,
// Lexical, Draft) listen to beforeinput/input from the editing pipeline, which `execCommand('insertText')` drives.

type ValueElement = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Write `.value` through the prototype's setter, bypassing instance-level overrides. */
export function setNativeValue(el: ValueElement, value: string): void {
  let proto: object | null = Object.getPrototypeOf(el);
  while (proto) {
    const desc = Object.getOwnPropertyDescriptor(proto, "value");
    if (desc?.set) {
      desc.set.call(el, value);
      return;
    }
    proto = Object.getPrototypeOf(proto);
  }
  el.value = value;
}

export function dispatchInput(el: Element, data: string | null, inputType = "insertText"): void {
  const view = windowOf(el);
  el.dispatchEvent(new view.InputEvent("input", { bubbles: true, composed: true, inputType, data }));
}

export function dispatchChange(el: Element): void {
  el.dispatchEvent(new (windowOf(el).Event)("change", { bubbles: true }));
}

export function focusElement(el: Element): void {
  if (deepActiveElement(el.ownerDocument) !== el) (el as HTMLElement).focus({ preventScroll: true });
}

/** Current text of a field: `.value`, or the text of a contenteditable. */
export function readValue(el: Element): string {
  if (el.localName === "input" || el.localName === "textarea" || el.localName === "select") {
    return (el as ValueElement).value;
  }
  return (el as HTMLElement).innerText ?? el.textContent ?? "";
}

function supportsSelection(el: Element): el is HTMLInputElement | HTMLTextAreaElement {
  if (el.localName === "textarea") return true;
  if (el.localName !== "input") return false;
  return ["text", "search", "url", "tel", "password"].includes((el as HTMLInputElement).type);
}

/** Replace the whole content with `value`, the way `fill` does. */
export function replaceValue(el: Element, value: string): void {
  focusElement(el);
  if (el.localName === "input" || el.localName === "textarea") {
    const field = el as HTMLInputElement | HTMLTextAreaElement;
    setNativeValue(field, value);
    dispatchInput(field, value);
    dispatchChange(field);
    return;
  }
  // contenteditable
  selectAllContents(el);
  const doc = el.ownerDocument;
  if (value === "") doc.execCommand("delete");
  else doc.execCommand("insertText", false, value);
  if (normalize(readValue(el)) !== normalize(value)) {
    // The editor swallowed the command (or the document is not focused): write the text and announce it.
    el.textContent = value;
    dispatchInput(el, value);
  }
}

/** Insert text at the caret, as a keystroke does; returns false if nothing could be inserted. */
export function insertAtCaret(el: Element, text: string): boolean {
  const before = readValue(el);
  const doc = el.ownerDocument;
  if (deepActiveElement(doc) === el || (el as HTMLElement).isContentEditable) {
    try {
      if (doc.execCommand("insertText", false, text) && readValue(el) !== before) return true;
    } catch {
      // fall through to the setter
    }
  }
  if (el.localName === "input" || el.localName === "textarea") {
    const field = el as HTMLInputElement | HTMLTextAreaElement;
    if (supportsSelection(el)) {
      const start = field.selectionStart ?? field.value.length;
      const end = field.selectionEnd ?? start;
      setNativeValue(field, field.value.slice(0, start) + text + field.value.slice(end));
      field.setSelectionRange(start + text.length, start + text.length);
    } else {
      setNativeValue(field, field.value + text);
    }
    dispatchInput(field, text);
    return readValue(el) !== before;
  }
  return false;
}

/** Delete the selection, or one character before (`back`) or after the caret. */
export function deleteAtCaret(el: Element, back: boolean): void {
  const doc = el.ownerDocument;
  const before = readValue(el);
  if (doc.execCommand(back ? "delete" : "forwardDelete") && readValue(el) !== before) return;
  if (!supportsSelection(el)) return;
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? start;
  const [from, to] = start !== end ? [start, end] : back ? [Math.max(0, start - 1), start] : [start, Math.min(el.value.length, start + 1)];
  if (from === to) return;
  setNativeValue(el, el.value.slice(0, from) + el.value.slice(to));
  el.setSelectionRange(from, from);
  dispatchInput(el, null, back ? "deleteContentBackward" : "deleteContentForward");
}

/** Select everything in a field or contenteditable (Control+A). */
export function selectAllContents(el: Element): void {
  if (el.localName === "input" || el.localName === "textarea") {
    (el as HTMLInputElement).select();
    return;
  }
  const win = windowOf(el);
  const range = el.ownerDocument.createRange();
  range.selectNodeContents(el);
  const sel = win.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** Put the caret at the end, as clicking after the last character would. */
export function caretToEnd(el: Element): void {
  if (supportsSelection(el)) {
    el.setSelectionRange(el.value.length, el.value.length);
    return;
  }
  if ((el as HTMLElement).isContentEditable) {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    range.collapse(false);
    const sel = windowOf(el).getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }
}

function normalize(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
