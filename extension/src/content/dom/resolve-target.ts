import * as z from "@crumbs/schemas/zod-mini";
import { LANDMARK_ALIASES, nameModeOf, roleTargetSchema, type RoleTarget } from "@crumbs/schemas/browser-action";
import { ActionError } from "../../shared/action-error.ts";
import { matchNames } from "../../perception/name-match.ts";
import { candidateOf, resolveRef } from "./refs.ts";
import { composedContains, deepElements, deepQueryAll } from "./deep-dom.ts";
import { statesOf } from "./element-info.ts";
import { nameOf, roleOf } from "./role-utils.ts";
import { checkedState, isEnabled, isVisible } from "./element-state.ts";
import { compileNameRegex } from "./regex-engine.ts";
import { evaluateXPath } from "./xpath.ts";

// A target is a ref from the last snapshot or a selector (role + accessible name, visible text, or
// css) re-resolved now. Refs heal only when certain (refs.ts); selectors that match several visible
// elements without `nth` are an error that lists them, never a guess.

const nth = z.optional(z.number().check(z.int(), z.gte(0)));

/**
 * The selector language: the contract's role form (name exact, includes or regex, states, within a
 * landmark, nth; `frame` is resolved by the worker before the action reaches this frame), visible
 * text, or css. Text and css also take `nth` here (the command form).
 */
export const roleSelectorSchema = z.union([
  roleTargetSchema,
  z.object({ text: z.string().check(z.minLength(1)), nth }),
  z.object({ css: z.string().check(z.minLength(1)), nth }),
  z.object({ xpath: z.string().check(z.minLength(1)), nth }),
]);
export type RoleSelector = z.infer<typeof roleSelectorSchema>;

/** At most this many matches are listed when a selector is ambiguous. */
const MAX_LISTED = 8;

export function resolveTarget(params: { ref?: string | undefined; selector?: RoleSelector | string | undefined }): Element {
  if (params.ref !== undefined) return resolveRef(params.ref);
  if (params.selector !== undefined) return resolveSelector(params.selector);
  throw new ActionError("invalid_params", "give `ref` (from the last snapshot) or `selector`");
}

export function describeSelector(sel: RoleSelector | string): string {
  if (typeof sel === "string") return `css "${sel}"`;
  if ("role" in sel) {
    const mode = nameModeOf(sel);
    const name = sel.name === undefined ? "" : mode === "regex" ? ` named /${sel.name}/` : ` named "${sel.name}"`;
    const states = sel.states ? ` ${JSON.stringify(sel.states)}` : "";
    const within = sel.within ? ` in ${sel.within.landmark}${sel.within.name ? ` "${sel.within.name}"` : ""}` : "";
    return `role ${sel.role}${name}${states}${within}`;
  }
  if ("text" in sel) return `text "${sel.text}"`;
  if ("xpath" in sel) return `xpath "${sel.xpath}"`;
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
  } else if ("xpath" in sel) {
    found = evaluateXPath(doc, sel.xpath);
  } else if ("role" in sel) {
    found = byRole(doc, sel);
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
  const visible = matches.filter(isVisible);
  if (matches.length > 1 && visible.length > 1) {
    const listed = visible.slice(0, MAX_LISTED).map(candidateOf);
    throw new ActionError(
      "invalid_params",
      `${describeSelector(sel)} matches ${visible.length} elements: ${listed.map((c) => `${c.ref} ${c.role} "${c.name}"`).join(", ")}` +
        `${visible.length > listed.length ? ", ..." : ""}; act on one by its ref, or add nth (from 0), a more exact name, states or within`,
      listed,
    );
  }
  return matches[0]!;
}

function byRole(doc: Document, sel: RoleTarget): Element[] {
  const role = sel.role.toLowerCase();
  let found: Element[] = [];
  for (const el of deepElements(doc)) if (roleOf(el) === role) found.push(el);
  if (sel.within) {
    const scopes = landmarks(doc, sel.within);
    found = found.filter((el) => scopes.some((s) => s !== el && composedContains(s, el)));
  }
  const states = sel.states;
  if (states) found = found.filter((el) => hasStates(el, role, states));
  if (sel.name === undefined) return found;
  const mode = nameModeOf(sel);
  const regex = mode === "regex" ? compileNameRegex(sel.name) : undefined;
  return matchNames(found.map((el) => nameOf(el, role)), sel.name, mode, regex).map((i) => found[i]!);
}

/** The landmarks `within` names; none on the page is an error that says so. */
function landmarks(doc: Document, within: NonNullable<RoleTarget["within"]>): Element[] {
  const role = LANDMARK_ALIASES[within.landmark];
  const wanted = within.name?.replace(/\s+/g, " ").trim().toLowerCase();
  const out: Element[] = [];
  for (const el of deepElements(doc)) {
    // An unnamed form element is a form to the user even where ARIA gives it no role.
    const is = roleOf(el) === role || (role === "form" && el.localName === "form");
    if (!is) continue;
    if (wanted !== undefined && !nameOf(el, role).replace(/\s+/g, " ").trim().toLowerCase().includes(wanted)) continue;
    out.push(el);
  }
  if (out.length === 0) {
    throw new ActionError("not_found", `no ${within.landmark}${within.name ? ` named "${within.name}"` : ""} on the page; take a snapshot to see its landmarks`);
  }
  return out;
}

/** The states a selector asks for, as the snapshot prints them (element-info.ts); disabled includes a disabled ancestor. */
function hasStates(el: Element, role: string, want: NonNullable<RoleTarget["states"]>): boolean {
  const s = statesOf(el, el.localName, role) ?? {};
  if (want.checked !== undefined && (checkedState(el) === true) !== want.checked) return false;
  if (want.checked === false && checkedState(el) === "mixed") return false;
  if (want.pressed !== undefined && (s.pressed === true) !== want.pressed) return false;
  if (want.pressed === false && s.pressed === "mixed") return false;
  if (want.disabled !== undefined && !isEnabled(el) !== want.disabled) return false;
  if (want.expanded !== undefined && s.expanded !== want.expanded) return false;
  if (want.selected !== undefined && (s.selected === true) !== want.selected) return false;
  return true;
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
