import { READ_ACTIONS } from "@crumbs/schemas/action-names";
import { hostOfUrl, siteOf } from "./site.ts";

// How risky an action is, decided in the browser from what it will do to the actual element, and
// said in words for the user. Pure: the content script (or the worker, for navigation) describes
// the action and its target; nothing here touches the DOM. The writer's `risk` may raise the
// result, never lower it.

export type Risk = "low" | "medium" | "high";

/**
 * What makes an action high risk; the user can allow a kind per site for good ("always allow").
 * requested: the writer of the action marked it high.
 */
export const RISK_KINDS = ["submit", "leave_site", "payment_field", "file_field", "destructive", "download", "requested"] as const;
export type RiskKind = (typeof RISK_KINDS)[number];

export const RISK_KIND_LABELS: Record<RiskKind, string> = {
  submit: "submit forms",
  leave_site: "navigate to other sites",
  payment_field: "type into payment fields",
  file_field: "choose files",
  destructive: "click delete, pay, buy, order, send, transfer, confirm or sign-out controls",
  download: "download files",
  requested: "run actions the agent marked high risk",
};

/**
 * Words in a control's accessible name that mean its click has effects outside the page or cannot
 * be undone. Matched as whole words, case-insensitive.
 */
export const DESTRUCTIVE_WORDS = [
  "delete",
  "remove",
  "pay",
  "buy",
  "purchase",
  "order",
  "checkout",
  "send",
  "transfer",
  "confirm",
  "sign out",
  "log out",
  "logout",
] as const;
const DESTRUCTIVE = new RegExp(`\\b(${DESTRUCTIVE_WORDS.map((w) => w.replace(" ", "\\s*")).join("|")})\\b`, "i");

/** Whether a control with this accessible name deletes, pays, buys, orders, sends, transfers, confirms or signs out. */
export function isDestructiveName(name: string): boolean {
  return DESTRUCTIVE.test(name);
}

/** A field whose name or label says it takes payment data (autocomplete cc-* fields are refused outright). */
const PAYMENT_FIELD = /\b(card|credit|cvv|cvc|iban|account number|routing|expir\w*)\b/i;

export interface TargetDescription {
  tag: string;
  /** input type, lowercased */
  type?: string;
  role: string;
  /** Accessible name */
  name: string;
  /** name and id attributes, for payment heuristics */
  fieldName?: string;
  /** The form the element belongs to, if any: its accessible name and action URL. */
  form?: { name: string; action?: string };
  /** A submit button or input of its form (a <button> without type in a form is one). */
  submits?: boolean;
  /** The link the element is or is inside. */
  href?: string;
  download?: string | boolean;
}

export interface ActionDescription {
  action: string;
  /** URL of the frame acted on (element actions) or of the tab (navigation). */
  pageUrl: string;
  target?: TargetDescription;
  /** press: the key or chord */
  key?: string;
  /** open / tab_new: where to */
  url?: string;
  /** The writer's `risk` */
  requested?: Risk;
}

export interface Assessment {
  risk: Risk;
  kind?: RiskKind;
  /** What will happen, in words: "Submit the form 'Sign in' on example.com". */
  sentence: string;
  /** The site acted on; grants are per site. */
  site: string;
}

const RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2 };

const q = (s: string) => `'${s.length > 60 ? `${s.slice(0, 59)}…` : s}'`;

function where(url: string): string {
  return hostOfUrl(url) ?? (url.split("?")[0] || "this page");
}

function label(t: TargetDescription | undefined): string {
  if (!t) return "the focused element";
  return t.name ? `${t.role} ${q(t.name)}` : t.role;
}

function formLabel(t: TargetDescription): string {
  const name = t.form?.name || (t.submits ? t.name : "");
  return name ? `the form ${q(name)}` : "a form";
}

function leaves(pageUrl: string, dest: string | undefined): boolean {
  if (!dest) return false;
  const from = siteOf(pageUrl);
  const to = siteOf(dest);
  return to !== undefined && from !== to;
}

function high(kind: RiskKind, sentence: string, site: string): Assessment {
  return { risk: "high", kind, sentence, site };
}

/** The risk of one action, from what it will do. */
export function assessRisk(d: ActionDescription): Assessment {
  const site = siteOf(d.pageUrl) ?? where(d.pageUrl);
  const on = where(d.pageUrl);
  const t = d.target;
  const verb = d.action.replace("_", " ");
  const plain = `${verb[0]!.toUpperCase()}${verb.slice(1)} ${label(t)} on ${on}`;
  const found = ((): Assessment => {
    switch (d.action) {
      case "submit":
        return high("submit", `Submit ${t ? formLabel(t) : "the focused form"} on ${on}`, site);
      case "open":
      case "tab_new": {
        if (!d.url) return { risk: "low", sentence: "Open a new empty tab", site };
        const inTab = d.action === "open" ? "in this tab" : "in a new tab";
        if (leaves(d.pageUrl, d.url)) return high("leave_site", `Leave ${on} and open ${d.url} ${inTab}`, site);
        return { risk: "medium", sentence: `Open ${d.url} ${inTab}`, site };
      }
      case "click":
      case "dblclick": {
        if (!t) return { risk: "medium", sentence: plain, site };
        if (t.submits && t.form) return high("submit", `Submit ${formLabel(t)} on ${on} (by clicking ${label(t)})`, site);
        if (t.download !== undefined && t.download !== false && t.href) {
          const file = typeof t.download === "string" && t.download ? t.download : t.href;
          return high("download", `Download ${q(file)} from ${on} (by clicking ${label(t)})`, site);
        }
        if (t.href && leaves(d.pageUrl, t.href)) return high("leave_site", `Leave ${on} for ${where(t.href)} (by clicking ${label(t)})`, site);
        if (t.type === "file") return high("file_field", `Open a file chooser for ${label(t)} on ${on}`, site);
        if (isDestructiveName(t.name)) return high("destructive", `Click ${label(t)} on ${on}`, site);
        return { risk: "medium", sentence: plain, site };
      }
      case "press": {
        const key = d.key ?? "";
        const enter = /(^|\+)Enter$/i.test(key);
        if (enter && t?.form && (t.submits || (t.tag === "input" && !["checkbox", "radio", "button", "reset", "file"].includes(t.type ?? "")))) {
          return high("submit", `Submit ${formLabel(t)} on ${on} (by pressing Enter in ${label(t)})`, site);
        }
        if (enter && t?.href && leaves(d.pageUrl, t.href)) return high("leave_site", `Leave ${on} for ${where(t.href)} (by pressing Enter on ${label(t)})`, site);
        if (enter && t && isDestructiveName(t.name) && (t.role === "button" || t.role === "link")) return high("destructive", `Activate ${label(t)} on ${on}`, site);
        return { risk: "medium", sentence: `Press ${key} on ${label(t)} on ${on}`, site };
      }
      case "fill":
      case "type":
      case "select": {
        if (t?.type === "file") return high("file_field", `Choose a file for ${label(t)} on ${on}`, site);
        if (t && (PAYMENT_FIELD.test(t.name) || PAYMENT_FIELD.test(t.fieldName ?? ""))) {
          return high("payment_field", `Enter payment data into ${label(t)} on ${on}`, site);
        }
        return { risk: "medium", sentence: `${d.action === "select" ? "Select an option in" : "Type into"} ${label(t)} on ${on}`, site };
      }
      case "check":
      case "uncheck":
        if (t && isDestructiveName(t.name)) return high("destructive", `${d.action === "check" ? "Check" : "Uncheck"} ${label(t)} on ${on}`, site);
        return { risk: "medium", sentence: plain, site };
      default:
        return { risk: READ_ACTIONS.has(d.action) ? "low" : "medium", sentence: plain, site };
    }
  })();
  // The writer may ask for more caution than the page shows, never for less.
  if (d.requested === "high" && found.risk !== "high") return { ...found, risk: "high", kind: "requested", sentence: `${found.sentence} (the agent marked this high risk)` };
  if (d.requested && RANK[d.requested] > RANK[found.risk]) return { ...found, risk: d.requested };
  return found;
}

/** An allowed kind on a site, from the options page's "always allow" list. */
export interface Grant {
  site: string;
  kind: RiskKind;
  granted_at: string;
}

/** Whether `a` may run without asking: not high, approved for this run, or granted on its site. */
export function needsConfirmation(a: Pick<Assessment, "risk" | "kind" | "site">, approved: readonly string[], grants: readonly { site: string; kind: string }[]): boolean {
  if (a.risk !== "high" || !a.kind) return false;
  if (approved.includes(a.kind)) return false;
  return !grants.some((g) => g.kind === a.kind && g.site === a.site);
}
