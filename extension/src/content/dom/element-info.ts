import { headingLevel, INTERACTIVE_ROLES } from "../../snapshot/roles.ts";
import type { States } from "../../snapshot/virtual-node.ts";
import { isSecretField } from "./redaction.ts";
import { handlesOwnClick } from "./own-click.ts";

// What the snapshot prints about an element besides its role and name (role-utils.ts): its states,
// its value, where a link goes, and whether an agent can act on it (which gives it a ref).

function ariaBool(el: Element, attr: string): boolean | "mixed" | undefined {
  const v = el.getAttribute(attr);
  if (v === null) return undefined;
  if (v === "mixed") return "mixed";
  return v === "true";
}

const FORM_TAGS = new Set(["button", "input", "select", "textarea", "option", "optgroup", "fieldset"]);

export function statesOf(el: Element, tag: string, role: string): States | undefined {
  const s: States = {};
  if (tag === "input" && (role === "checkbox" || role === "radio" || role === "switch")) {
    const input = el as HTMLInputElement;
    s.checked = input.indeterminate ? "mixed" : input.checked;
  } else if (role === "checkbox" || role === "radio" || role === "switch" || role.startsWith("menuitem")) {
    const v = ariaBool(el, "aria-checked");
    if (v !== undefined) s.checked = v;
  }
  if ((FORM_TAGS.has(tag) && el.matches(":disabled")) || el.getAttribute("aria-disabled") === "true") s.disabled = true;
  const expanded = ariaBool(el, "aria-expanded");
  if (expanded !== undefined && expanded !== "mixed") s.expanded = expanded;
  else if (tag === "summary" && el.parentElement?.localName === "details") {
    s.expanded = (el.parentElement as HTMLDetailsElement).open;
  }
  if (tag === "option" ? (el as HTMLOptionElement).selected : el.getAttribute("aria-selected") === "true") s.selected = true;
  const pressed = ariaBool(el, "aria-pressed");
  if (pressed !== undefined) s.pressed = pressed;
  if (role === "heading") {
    const level = Number(el.getAttribute("aria-level")) || headingLevel(tag);
    if (level) s.level = level;
  }
  if ((el as HTMLInputElement).required || el.getAttribute("aria-required") === "true") s.required = true;
  if ((tag === "input" || tag === "select" || tag === "textarea") && isSecretField(el)) s.secret = true;
  if (s.checked === false) delete s.checked;
  if (s.pressed === false) delete s.pressed;
  return Object.keys(s).length > 0 ? s : undefined;
}

const VALUE_INPUT_TYPES = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file", "hidden", "color"]);
const MAX_VALUE_CHARS = 1000;

/** The current value a user would see; never for secret fields. */
export function valueOf(el: Element, tag: string): string | undefined {
  if (tag === "input") {
    const input = el as HTMLInputElement;
    if (VALUE_INPUT_TYPES.has(input.type) || isSecretField(el)) return undefined;
    return input.value.slice(0, MAX_VALUE_CHARS);
  }
  if (tag === "textarea") {
    if (isSecretField(el)) return undefined;
    return (el as HTMLTextAreaElement).value.slice(0, MAX_VALUE_CHARS);
  }
  if (tag === "select") {
    const sel = el as HTMLSelectElement;
    return [...sel.selectedOptions].map((o) => o.label || o.text).join(", ");
  }
  if ((el as HTMLElement).isContentEditable) {
    if (isSecretField(el)) return undefined;
    return ((el as HTMLElement).innerText ?? "").slice(0, MAX_VALUE_CHARS);
  }
  const now = el.getAttribute("aria-valuetext") ?? el.getAttribute("aria-valuenow");
  return now ?? undefined;
}

/** Links: same-origin targets as a path, others as the full URL; script URLs are dropped. */
export function hrefOf(el: Element): string | undefined {
  const raw = el.getAttribute("href");
  if (raw === null) return undefined;
  let url: URL;
  try {
    url = new URL(raw, el.ownerDocument.baseURI);
  } catch {
    return undefined;
  }
  if (url.protocol === "javascript:") return undefined;
  if (url.origin === el.ownerDocument.location?.origin) return `${url.pathname}${url.search}${url.hash}`;
  return url.href.length > 300 ? `${url.href.slice(0, 299)}…` : url.href;
}

const NATIVE_ACTIONABLE = new Set(["button", "select", "textarea", "summary"]);

/** Native controls, interactive roles, tabindex, contenteditable roots, and click targets shown by cursor. */
export function isActionable(
  el: Element,
  tag: string,
  role: string,
  style: CSSStyleDeclaration,
  parentPointer: boolean,
): boolean {
  if (style.pointerEvents === "none") return false;
  if (NATIVE_ACTIONABLE.has(tag)) return true;
  if (tag === "input") return (el as HTMLInputElement).type !== "hidden";
  if ((tag === "a" || tag === "area") && el.hasAttribute("href")) return true;
  if (INTERACTIVE_ROLES.has(role)) return true;
  const tabindex = el.getAttribute("tabindex");
  if (tabindex !== null && Number(tabindex) >= 0) return true;
  const html = el as HTMLElement;
  if (html.isContentEditable && !html.parentElement?.isContentEditable) return true;
  if (el.hasAttribute("onclick")) return true;
  if (style.cursor !== "pointer") return false;
  // Inside a clickable container (a table row with the pointer cursor) the cursor is inherited: a child
  // is a click target of its own only when it does something else, an anchor or a handler of its own.
  return !parentPointer || tag === "a" || handlesOwnClick(el);
}
