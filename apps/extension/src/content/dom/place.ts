import type { Place } from "../../perception/heal.ts";
import { composedParent } from "./deep-dom.ts";
import { nameOf, roleOf } from "./role-utils.ts";

// Where an element is, as refs that heal remember it (perception/heal.ts): the innermost landmark
// (or form) around it and the text of the collection item (list item, row, card) it is in. Computed
// from the live DOM the same way when a snapshot gives the ref and when a replaced element is looked
// for again, so a re-rendered element is in the same place.

const LANDMARKS = new Set(["banner", "navigation", "main", "complementary", "contentinfo", "search", "form", "region", "dialog"]);
const ITEMS = new Set(["listitem", "row", "article", "treeitem"]);
const ITEM_CHARS = 80;
/** Ancestors looked at: deeper pages are rare, and the place only has to tell twins apart. */
const MAX_DEPTH = 64;

/** The role of a possible container; header and footer need the (costlier) sectioning check only. */
function containerRole(el: Element): string {
  const tag = el.localName;
  return roleOf(el, tag, tag === "header" || tag === "footer" ? undefined : false);
}

export function placeOf(el: Element, itemText: (item: Element) => string = textOfItem): Place {
  let item = "";
  let depth = 0;
  for (let p = composedParent(el); p && depth < MAX_DEPTH; p = composedParent(p), depth++) {
    const role = containerRole(p);
    if (!item && ITEMS.has(role)) item = itemText(p);
    // An unnamed form element is a form to the user even where ARIA gives it no role.
    const landmark = LANDMARKS.has(role) ? role : p.localName === "form" ? "form" : undefined;
    if (landmark) {
      const name = nameOf(p, landmark);
      return { scope: name ? `${landmark} "${name.slice(0, ITEM_CHARS)}"` : landmark, item };
    }
  }
  return { scope: "", item };
}

export function textOfItem(item: Element): string {
  return (item.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, ITEM_CHARS);
}

/** placeOf for many elements of one walk: each item's text is read once. */
export function placeCache(): (el: Element) => Place {
  const texts = new WeakMap<Element, string>();
  const cached = (item: Element) => {
    let t = texts.get(item);
    if (t === undefined) {
      t = textOfItem(item);
      texts.set(item, t);
    }
    return t;
  };
  return (el) => placeOf(el, cached);
}
