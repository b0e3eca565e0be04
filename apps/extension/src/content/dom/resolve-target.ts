import * as z from "@crumbs/schemas/zod-mini";
import { ActionError } from "../../shared/action-error.ts";
import { resolveRef } from "./refs.ts";
import { deepElements, deepQueryAll } from "./deep-dom.ts";
import { nameOf, roleOf } from "./role-utils.ts";
import { isVisible } from "./element-state.ts";

// A target is a ref from the last snapshot or a selector (role + accessible name, visible text, or
// css) re-resolved now. Refs fail closed: a removed or re-rendered element is `stale_ref`, never a
// guess at a similar element.

/** The selector language: role and accessible name (as the snapshot prints them), visible text, or css. */
export const roleSelectorSchema = z.union([
  z.object({
    role: z.string().check(z.minLength(1)),
    name: z.optional(z.string()),
    exact: z.optional(z.boolean()),
    nth: z.optional(z.number().check(z.int(), z.gte(0))),
  }),
  z.object({ text: z.string().check(z.minLength(1)), nth: z.optional(z.number().check(z.int(), z.gte(0))) }),
  z.object({ css: z.string().check(z.minLength(1)), nth: z.optional(z.number().check(z.int(), z.gte(0))) }),
]);
export type RoleSelector = z.infer<typeof roleSelectorSchema>;

export function resolveTarget(params: { ref?: string | undefined; selector?: RoleSelector | string | undefined }): Element {
  // resolveRef fails closed: unknown, removed or re-rendered elements are stale_ref.
  if (params.ref !== undefined) return resolveRef(params.ref);
  if (params.selector !== undefined) return resolveSelector(params.selector);
  throw new ActionError("invalid_params", "give `ref` (from the last snapshot) or `selector`");
}

export function describeSelector(sel: RoleSelector | string): string {
  if (typeof sel === "string") return `css "${sel}"`;
  if ("role" in sel) return `role ${sel.role}${sel.name !== undefined ? ` named "${sel.name}"` : ""}`;
  if ("text" in sel) return `text "${sel.text}"`;
  return `css "${sel.css}"`;
}

/** All elements the selector matches, visible ones first, in document order. */
export function matchSelector(sel: RoleSelector | string, doc: Document = document): Element[] {
  let found: Element[];
  if (typeof sel === "string" || "css" in sel) {
    const css = typeof sel === "string" ? sel : sel.css;
    try {
      found = deepQueryAll(doc, css);
    } catch {
      throw new ActionError("invalid_params", `"${css}" is not a valid CSS selector`);
    }
  } else if ("role" in sel) {
    found = byRole(doc, sel.role.toLowerCase(), sel.name, sel.exact ?? false);
  } else {
    found = byText(doc, sel.text);
  }
  const visible = found.filter(isVisible);
  return visible.length ? visible : found;
}

export function resolveSelector(sel: RoleSelector | string, doc: Document = document): Element {
  const matches = matchSelector(sel, doc);
  const nth = typeof sel === "string" ? undefined : sel.nth;
  if (matches.length === 0) {
    throw new ActionError(
      "not_found",
      `nothing matches ${describeSelector(sel)}; take a snapshot to see what the page offers` +
        " (content of cross-origin iframes is reachable through its refs only)",
    );
  }
  if (nth !== undefined) {
    const el = matches[nth];
    if (!el) throw new ActionError("not_found", `${describeSelector(sel)} matches ${matches.length} elements; nth=${nth} is past the end (nth counts from 0)`);
    return el;
  }
  if (matches.length > 1 && matches.filter(isVisible).length > 1) {
    throw new ActionError(
      "invalid_params",
      `${describeSelector(sel)} matches ${matches.length} elements; add nth (from 0) or a more exact name, or use a ref`,
    );
  }
  return matches[0]!;
}

/** Names match case-insensitively, exact names before substrings; `exact` keeps case and needs the whole name. */
function byRole(doc: Document, role: string, name: string | undefined, exactName: boolean): Element[] {
  const withRole: Element[] = [];
  for (const el of deepElements(doc)) if (roleOf(el) === role) withRole.push(el);
  if (name === undefined) return withRole;
  if (exactName) {
    const whole = name.replace(/\s+/g, " ").trim();
    return withRole.filter((el) => nameOf(el, role).replace(/\s+/g, " ").trim() === whole);
  }
  const wanted = norm(name);
  const exact = withRole.filter((el) => norm(nameOf(el, role)) === wanted);
  return exact.length ? exact : withRole.filter((el) => norm(nameOf(el, role)).includes(wanted));
}

/**
 * The innermost elements whose text contains `text`: a button, not the body that also contains it. Elements
 * whose whole text equals `text` win over ones that merely contain it ("Follow" the button, not "following").
 */
function byText(doc: Document, text: string): Element[] {
  const wanted = norm(text);
  const out: Element[] = [];
  for (const el of deepElements(doc)) {
    if (["script", "style", "template", "head", "noscript"].includes(el.localName)) continue;
    const own = norm(isButtonInput(el) ? (el as HTMLInputElement).value : el.textContent ?? "");
    if (!own.includes(wanted)) continue;
    // Drop ancestors of an earlier match: document order puts ancestors first.
    while (out.length && out[out.length - 1]!.contains(el)) out.pop();
    out.push(el);
  }
  const exact = out.filter((el) => norm(isButtonInput(el) ? (el as HTMLInputElement).value : el.textContent ?? "") === wanted);
  return exact.length ? exact : out;
}

function isButtonInput(el: Element): boolean {
  return el.localName === "input" && ["submit", "button", "reset"].includes((el as HTMLInputElement).type);
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
