import { accessibleName } from "./accessible-name.ts";
import { isSectioning, roleOf as walkerRoleOf } from "./element-info.ts";

// Role and accessible name for role selectors, from the snapshot's own functions, so `{role: "button",
// name: "Save"}` finds what the snapshot printed as `- button "Save"`.

export function roleOf(el: Element): string {
  let inSectioning = false;
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (isSectioning(p.localName)) {
      inSectioning = true;
      break;
    }
  }
  return walkerRoleOf(el, el.localName, inSectioning);
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
