import { hostMatches, hostOf } from "../risk/allowlist.ts";
import { assessRisk, needsConfirmation, type Assessment, type TargetDescription } from "../risk/risk.ts";
import { siteOf } from "../risk/site.ts";
import { ActionError, NeedsConfirmation } from "../shared/action-error.ts";
import { deepActiveElement } from "./dom/deep-dom.ts";
import { nameOf, roleOf } from "./dom/role-utils.ts";
import { resolveTarget, type RoleSelector } from "./dom/resolve-target.ts";
import type { Guard } from "../shared/guard.ts";
import { highlight } from "./highlight.ts";
import { isSecretField } from "./dom/redaction.ts";

// The last check before an agent's write action touches the page, run in the frame it acts on at
// the moment it runs: the frame's own origin against the allowlist (or the task's sites), secret
// fields refused outright, and the action's risk decided from the element it will really act on.
// A high-risk action not yet approved (nor allowed for good on this site) is not run: the element
// is highlighted and the worker asks the user, then sends it again with the approval.

const GUARDED = new Set(["click", "dblclick", "fill", "type", "press", "check", "uncheck", "select", "submit"]);
const SECRET_REFUSED = new Set(["fill", "type", "press", "select"]);

export function isGuarded(action: string): boolean {
  return GUARDED.has(action);
}

/** Throws blocked_by_policy when this frame is not one the agent may write to. */
export function checkFrame(action: string, url: string, guard: Guard): void {
  const host = hostOf(url);
  if (guard.allowlist) {
    if (host && guard.allowlist.some((p) => hostMatches(p, host))) return;
    throw new ActionError(
      "blocked_by_policy",
      `${action} on ${host ?? url} is not allowed: the frame's host is not in the extension's allowlist (${guard.allowlist.join(", ") || "empty"})`,
    );
  }
  const site = siteOf(url);
  if (site && guard.sites.includes(site)) return;
  throw new ActionError(
    "blocked_by_policy",
    `${action} on ${host ?? url} is not allowed: agents act only on the site where the task started (${guard.sites.join(", ") || "none"}); the user can widen this in the extension's options`,
  );
}

function targetOf(action: string, params: Record<string, unknown>): Element | undefined {
  if (params.ref !== undefined || params.selector !== undefined) {
    try {
      return resolveTarget(params as { ref?: string; selector?: RoleSelector });
    } catch {
      return undefined; // the action itself reports the stale ref or missing element
    }
  }
  if (action === "press" || action === "type" || action === "submit") {
    const focused = deepActiveElement();
    return focused && focused !== document.body ? focused : undefined;
  }
  return undefined;
}

export function describeTarget(el: Element): TargetDescription {
  // A click on the text inside a button or link acts on the button or link.
  const control = el.closest("a[href], button, input, select, textarea") ?? el;
  const tag = control.localName;
  const input = control as HTMLInputElement;
  const role = roleOf(control);
  const form = (input.form as HTMLFormElement | null | undefined) ?? control.closest("form");
  const submits =
    (tag === "button" && (input.getAttribute("type") ?? "submit").toLowerCase() === "submit") ||
    (tag === "input" && ["submit", "image"].includes(input.type));
  const out: TargetDescription = { tag, role, name: nameOf(control, role) };
  if (tag === "input") out.type = input.type.toLowerCase();
  const fieldName = [control.getAttribute("name"), control.id, control.getAttribute("autocomplete")].filter(Boolean).join(" ");
  if (fieldName) out.fieldName = fieldName;
  if (form) {
    // An unnamed form goes by its submit button: "the form 'Sign in'".
    const button = form.querySelector("button:not([type]), button[type=submit], input[type=submit]");
    const name = nameOf(form, "form") || (button ? nameOf(button) : "") || form.getAttribute("name") || "";
    out.form = { name, action: form.action };
  }
  if (submits) out.submits = true;
  if (tag === "a") {
    out.href = (control as HTMLAnchorElement).href;
    if (control.hasAttribute("download")) out.download = control.getAttribute("download") || true;
  }
  return out;
}

/**
 * Runs the checks for one action in this frame; returns the assessment when it may go ahead.
 * Throws ActionError (blocked_by_policy) or NeedsConfirmation.
 */
export function runGuard(action: string, params: Record<string, unknown>, guard: Guard): Assessment {
  // about:blank and srcdoc frames act with the origin they inherit; a sandboxed one has none ("null").
  checkFrame(action, /^https?:$/.test(location.protocol) ? location.href : self.origin, guard);
  const el = targetOf(action, params);
  if (el && SECRET_REFUSED.has(action) && isSecretField(el)) {
    throw new ActionError(
      "blocked_by_policy",
      "this is a password, one-time-code or payment field: agents may not type into it, and its value must never pass through the bus. Ask the user to fill it in themselves, then continue.",
    );
  }
  const assessment = assessRisk({
    action,
    pageUrl: location.href,
    ...(el ? { target: describeTarget(el) } : {}),
    ...(typeof params.key === "string" ? { key: params.key } : {}),
    ...(guard.requested ? { requested: guard.requested } : {}),
  });
  if (needsConfirmation(assessment, guard.approved, guard.grants)) {
    if (el) highlight(el);
    throw new NeedsConfirmation(assessment);
  }
  return assessment;
}
