import { composedParent } from "./deep-dom.ts";

// Element states as an agent means them (Playwright's definitions where they exist).

/** A short tag for messages: `<div id="modal" class="overlay">`. Never includes values. */
export function describeElement(el: Element): string {
  const attrs: string[] = [];
  if (el.id) attrs.push(`id="${clip(el.id, 40)}"`);
  const cls = el.getAttribute("class")?.trim();
  if (cls) attrs.push(`class="${clip(cls.split(/\s+/).slice(0, 3).join(" "), 60)}"`);
  for (const name of ["role", "aria-label", "name", "type"]) {
    const v = el.getAttribute(name);
    if (v) attrs.push(`${name}="${clip(v, 40)}"`);
  }
  return `<${el.localName}${attrs.length ? " " + attrs.join(" ") : ""}>`;
}

function clip(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

/** Non-empty box and not `visibility: hidden` (opacity 0 still counts as visible, as in Playwright). */
export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  if (style?.display === "contents") {
    return Array.from(el.children).some((c) => isVisible(c));
  }
  if (!el.checkVisibility({ visibilityProperty: true })) return false;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

const DISABLEABLE = new Set(["button", "input", "select", "textarea", "option", "optgroup", "fieldset"]);

/** Not disabled natively (including by a disabled fieldset) and not `aria-disabled="true"` on it or an ancestor. */
export function isEnabled(el: Element): boolean {
  if (DISABLEABLE.has(el.localName) && el.matches(":disabled")) return false;
  for (let n: Element | null = el; n; n = composedParent(n)) {
    if (n.getAttribute("aria-disabled") === "true") return false;
  }
  return true;
}

const TEXT_INPUT_TYPES = new Set([
  "", "text", "search", "email", "url", "tel", "password", "number", "date", "datetime-local", "month", "time", "week",
]);

/** Accepts typed text: a text-like input, a textarea, a contenteditable or a role=textbox element. */
export function isTextEntry(el: Element): boolean {
  if (el.localName === "input") return TEXT_INPUT_TYPES.has((el as HTMLInputElement).type.toLowerCase());
  if (el.localName === "textarea") return true;
  if ((el as HTMLElement).isContentEditable) return true;
  return false;
}

/** Enabled and not read-only: what `fill` and `type` need. */
export function isEditable(el: Element): boolean {
  if (!isEnabled(el)) return false;
  if (el.localName === "input" || el.localName === "textarea") {
    if ((el as HTMLInputElement).readOnly) return false;
    if (el.localName === "input" && !TEXT_INPUT_TYPES.has((el as HTMLInputElement).type.toLowerCase())) return false;
    return true;
  }
  if (el.localName === "select") return true;
  if ((el as HTMLElement).isContentEditable) return el.getAttribute("aria-readonly") !== "true";
  const role = el.getAttribute("role");
  if (role && ["textbox", "searchbox", "combobox", "spinbutton"].includes(role)) return el.getAttribute("aria-readonly") !== "true";
  return false;
}

const CHECKABLE_ROLES = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio", "option", "treeitem"]);

/** checked state, or undefined when the element cannot be checked. */
export function checkedState(el: Element): boolean | "mixed" | undefined {
  if (el.localName === "input") {
    const input = el as HTMLInputElement;
    if (input.type === "checkbox") return input.indeterminate ? "mixed" : input.checked;
    if (input.type === "radio") return input.checked;
  }
  const role = el.getAttribute("role");
  if (role && CHECKABLE_ROLES.has(role)) {
    const v = el.getAttribute("aria-checked") ?? el.getAttribute("aria-selected");
    return v === "mixed" ? "mixed" : v === "true";
  }
  const pressed = el.getAttribute("aria-pressed");
  if (pressed !== null) return pressed === "mixed" ? "mixed" : pressed === "true";
  return undefined;
}

/** The label element that activates `el` when clicked, if `label` is one. */
export function isLabelOf(label: Element, el: Element): boolean {
  return label.localName === "label" && (label as HTMLLabelElement).control === el;
}
