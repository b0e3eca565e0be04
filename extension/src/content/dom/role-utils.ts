import { computeRole } from "../../snapshot/roles.ts";
import { accessibleName } from "./accessible-name.ts";

// Roles and names of live elements, one place for every user: the walker (which passes the
// sectioning context it already knows), role selectors, the guard's target description and the
// short element summaries in results. So `{role: "button", name: "Save"}` finds what the
// snapshot printed as `- button "Save"`, and the user is asked about that same name.

const SECTIONING = new Set(["article", "aside", "main", "nav", "section"]);

export function isSectioning(tag: string): boolean {
  return SECTIONING.has(tag);
}

function insideSectioning(el: Element): boolean {
  for (let p = el.parentElement; p; p = p.parentElement) if (isSectioning(p.localName)) return true;
  return false;
}

/** The element's ARIA role; header/footer depend on whether a sectioning ancestor holds it. */
export function roleOf(el: Element, tag = el.localName, inSectioning = insideSectioning(el)): string {
  const input = el as HTMLInputElement & HTMLSelectElement;
  return computeRole({
    tag,
    roleAttr: el.getAttribute("role"),
    type: tag === "input" ? input.type : null,
    hasHref: (tag === "a" || tag === "area") && el.hasAttribute("href"),
    multiple: tag === "select" ? input.multiple : false,
    size: tag === "select" ? input.size : 0,
    hasExplicitName: el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") || el.hasAttribute("title"),
    inSectioning,
    altEmpty: tag === "img" && el.getAttribute("alt") === "",
  });
}

/** The accessible name in the walker's order: ARIA, native labels, content (for name-from-content roles), title/placeholder. */
export function nameOf(el: Element, role = roleOf(el)): string {
  return accessibleName(el, role);
}

/** `button "Save"` for results and messages; names are bounded and never carry field values. */
export function summarize(el: Element): string {
  const role = roleOf(el);
  const name = nameOf(el, role);
  const shown = name.length > 80 ? name.slice(0, 79) + "…" : name;
  return shown ? `${role} "${shown}"` : role;
}
