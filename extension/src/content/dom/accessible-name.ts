import { NAME_FROM_CONTENT } from "../../snapshot/roles.ts";
import { groupedName } from "./group-name.ts";

/**
 * Accessible names, in the order of the ARIA name computation the walker needs: aria-labelledby,
 * aria-label, native labels (label[for], wrapping label, alt, legend, caption, button values), then,
 * after the children are known, name from content, and last title and placeholder.
 */

function clean(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** Text of a subtree, skipping form controls' own content (a select's options, a textarea's text). */
function textOf(node: Node, skip?: Element): string {
  let out = "";
  for (const child of node.childNodes) {
    if (child === skip) continue;
    if (child.nodeType === Node.TEXT_NODE) out += ` ${child.nodeValue ?? ""}`;
    else if (child.nodeType === Node.ELEMENT_NODE) {
      const el = child as Element;
      const tag = el.localName;
      if (tag === "select" || tag === "textarea" || tag === "script" || tag === "style") continue;
      if (tag === "input") continue;
      if (tag === "img") out += ` ${el.getAttribute("alt") ?? ""}`;
      else out += ` ${textOf(el, skip)}`;
    }
  }
  return out;
}

function labelledBy(el: Element): string {
  const ids = el.getAttribute("aria-labelledby");
  if (!ids) return "";
  const root = el.getRootNode() as Document | ShadowRoot;
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    if (!id) continue;
    const target = root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
    if (!target) continue;
    parts.push(clean(target.getAttribute("aria-label")) || clean(textOf(target)));
  }
  return clean(parts.join(" "));
}

/** Name given by ARIA attributes; wins over everything else. */
export function ariaName(el: Element): string {
  return labelledBy(el) || clean(el.getAttribute("aria-label"));
}

const BUTTON_INPUT_DEFAULTS: Record<string, string> = { submit: "Submit", reset: "Reset" };

/** Name from the host language: labels, alt, legend, caption, a button input's value. */
export function nativeName(el: Element): string {
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea" || tag === "meter" || tag === "progress") {
    const input = el as HTMLInputElement;
    const type = (input.type ?? "").toLowerCase();
    if (tag === "input" && (type === "button" || type === "submit" || type === "reset")) {
      return clean(input.getAttribute("value")) || BUTTON_INPUT_DEFAULTS[type] || "";
    }
    if (tag === "input" && type === "image") return clean(el.getAttribute("alt"));
    const labels = input.labels;
    if (labels && labels.length > 0) {
      return clean([...labels].map((l) => textOf(l, el)).join(" "));
    }
    return "";
  }
  if (tag === "img" || tag === "area") return clean(el.getAttribute("alt"));
  if (tag === "fieldset") return clean(el.querySelector(":scope > legend")?.textContent);
  if (tag === "table") return clean(el.querySelector(":scope > caption")?.textContent);
  if (tag === "figure") return clean(el.querySelector(":scope > figcaption")?.textContent);
  if (tag === "svg") return clean(el.querySelector(":scope > title")?.textContent);
  return "";
}

/** Last resort names: title, and for text fields the placeholder. */
export function fallbackName(el: Element): string {
  return clean(el.getAttribute("title")) || clean(el.getAttribute("placeholder"));
}

export { clean as normalizeText };

export interface NameOptions {
  /** The element's content as text; default its innerText. The snapshot passes the visible text it walked. */
  content?: () => string;
  /**
   * Whether the element is actionable. An actionable element without a role (a clickable div) is
   * named from its content; a non-actionable one gets no name. Undefined: title and placeholder only.
   */
  actionable?: boolean;
}

/**
 * The one accessible name of the extension, in the ARIA order the snapshot prints it: ARIA, native
 * labels, content for name-from-content roles, then title and placeholder. The snapshot, role
 * selectors and the risk assessment all use it, so `{role: "button", name: "Save"}` finds what the
 * snapshot printed as `- button "Save"` and the user is asked about that same name.
 */
export function accessibleName(el: Element, role: string, opts: NameOptions = {}): string {
  const named = ariaName(el) || nativeName(el);
  if (named) return named;
  const generic = role === "generic";
  if (NAME_FROM_CONTENT.has(role) || (generic && opts.actionable)) {
    const text = clean(opts.content ? opts.content() : ((el as HTMLElement).innerText ?? el.textContent));
    if (text) return text;
  }
  if (generic && opts.actionable === false) return "";
  const fallback = fallbackName(el);
  if (fallback || (role !== "button" && role !== "link")) return fallback;
  // An icon button among its twins in a list of cards: named by what it does and the card it is in.
  return groupedName(el, role);
}
