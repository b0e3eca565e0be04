import type { Place } from "../../perception/heal.ts";
import { composedParent } from "./deep-dom.ts";
import { nameOf, roleOf } from "./role-utils.ts";

// Where an element is, as refs that heal remember it (perception/heal.ts): the innermost landmark
// (or form) around it and the text of the collection item (list item, row, card) it is in. The walker
// tracks both on its way down (scopeOf, isItem), so a snapshot pays nothing per ref for them; a
// replaced element's candidates get theirs here from the live DOM (placeOf), by the same rules, so
// a re-rendered element is in the same place.

const LANDMARKS = new Set(["banner", "navigation", "main", "complementary", "contentinfo", "search", "form", "region", "dialog"]);
const ITEMS = new Set(["listitem", "row", "article", "treeitem"]);
const ITEM_CHARS = 80;
/** Ancestors looked at: deeper pages are rare, and the place only has to tell twins apart. */
const MAX_DEPTH = 64;

/** The scope a container with this role opens (`main`, `form "Sign in"`), or undefined for none. */
export function scopeOf(el: Element, role: string): string | undefined {
  // An unnamed form element is a form to the user even where ARIA gives it no role.
  const landmark = LANDMARKS.has(role) ? role : el.localName === "form" ? "form" : undefined;
  if (!landmark) return undefined;
  const name = nameOf(el, landmark);
  return name ? `${landmark} "${name.slice(0, ITEM_CHARS)}"` : landmark;
}

export function isItem(role: string): boolean {
  return ITEMS.has(role);
}

export function textOfItem(item: Element): string {
  return (item.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, ITEM_CHARS);
}

/** The role of a possible container; header and footer need the (costlier) sectioning check only. */
function containerRole(el: Element): string {
  const tag = el.localName;
  return roleOf(el, tag, tag === "header" || tag === "footer" ? undefined : false);
}

/** The landmark scope and the collection item element around a live element, from its ancestors. */
export function ancestorsPlace(el: Element): { scope: string; item: Element | undefined } {
  let item: Element | undefined;
  let depth = 0;
  for (let p = composedParent(el); p && depth < MAX_DEPTH; p = composedParent(p), depth++) {
    const role = containerRole(p);
    if (!item && ITEMS.has(role)) item = p;
    const scope = scopeOf(p, role);
    if (scope !== undefined) return { scope, item };
  }
  return { scope: "", item };
}

/** The place of a live element, from its ancestors. */
export function placeOf(el: Element): Place {
  const { scope, item } = ancestorsPlace(el);
  return { scope, item: item ? textOfItem(item) : "" };
}
