// Secrets never enter the bus: a value an agent would type into a password, one-time-code or
// payment field must not be written into a browser.action.v1 (every breadcrumb is stored with its
// history). The runner writes the action after the model chose it and before any browser sees it,
// so it decides here, from what the browser already told it: the page context marks such fields
// `[secret]` in its snapshot and `secret: true` in `dom.interactiveElements` and in the pcd's form
// fields, and so do snapshots the agent took during the task and the results of query, details and a
// stale ref's candidates. A selector or a known element name that says password, one-time code
// or card data counts too. The extension refuses the same fields when it runs an action (the last
// line, for a field the runner could not recognise).

/** Actions whose params carry text that would be typed or chosen in a field. */
const VALUE_ACTIONS = new Set(["fill", "type", "select"]);
const SECRET_NAME = /\b(password|passcode|passwort|one[- ]time|otp|verification code|security code|cvc|cvv|csc|card number|credit card|iban|pin)\b/i;
const SECRET_REF = /\[ref=([A-Za-z0-9_:-]+)\](?: \[[^\]]*\])* \[secret\]/g;

export const SECRET_REFUSAL =
  "blocked_by_policy: this is a password, one-time-code or payment field. Agents may not type into it, and its value must never pass through the bus. Ask the user to fill it in themselves, then continue.";

export const WITHHELD = "(withheld: not stored)";

export interface SecretKnowledge {
  refs: Set<string>;
  /** Accessible names by ref, from the page context's interactiveElements. */
  names: Map<string, string>;
}

/** How deep and how many values of a result are looked through for `{ref, secret: true}`. */
const MAX_SCAN_DEPTH = 8;
const MAX_SCAN_VALUES = 5_000;

/**
 * Refs a result marks secret as data: `query` answers, `details` (a form's fields), the candidates of a
 * stale ref and the pcd all say `{"ref": "e5", "secret": true}` rather than a snapshot line.
 */
function secretRefsIn(value: unknown, refs: Set<string>): void {
  let budget = MAX_SCAN_VALUES;
  const walk = (v: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > MAX_SCAN_DEPTH || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach((x) => walk(x, depth + 1));
    const o = v as Record<string, unknown>;
    if (typeof o.ref === "string" && o.secret === true) refs.add(o.ref);
    for (const x of Object.values(o)) walk(x, depth + 1);
  };
  walk(value, 0);
}

function parsedJson(text: string): unknown {
  if (!text.includes('"secret":true')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the runner knows about fields: page contexts (raw) and the texts of earlier results. */
export function secretKnowledge(contexts: Array<Record<string, unknown>>, texts: string[]): SecretKnowledge {
  const refs = new Set<string>();
  const names = new Map<string, string>();
  const scan = (text: unknown) => {
    if (typeof text !== "string") return;
    for (const m of text.matchAll(SECRET_REF)) refs.add(m[1]!);
    secretRefsIn(parsedJson(text), refs);
  };
  for (const c of contexts) {
    const dom = c.dom as { interactiveElements?: Record<string, { name?: unknown; secret?: unknown }> } | undefined;
    for (const [ref, info] of Object.entries(dom?.interactiveElements ?? {})) {
      if (info?.secret === true) refs.add(ref);
      if (typeof info?.name === "string") names.set(ref, info.name);
    }
    scan((c.snapshot as { text?: unknown } | undefined)?.text);
    secretRefsIn(c.pcd, refs);
  }
  for (const t of texts) scan(t);
  return { refs, names };
}

/** Whether an element's name says password, one-time code or card data. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Whether this call would put a secret into a breadcrumb. */
export function isSecretTarget(action: string, params: Record<string, unknown>, known: SecretKnowledge): boolean {
  if (!VALUE_ACTIONS.has(action)) return false;
  const ref = typeof params.ref === "string" ? params.ref : undefined;
  if (ref && (known.refs.has(ref) || SECRET_NAME.test(known.names.get(ref) ?? ""))) return true;
  const sel = params.selector as Record<string, unknown> | undefined;
  if (sel && typeof sel === "object") {
    const said = [sel.name, sel.text, sel.css, sel.xpath].filter((v): v is string => typeof v === "string").join(" ");
    if (SECRET_NAME.test(said) || /type\s*=\s*["']?password|autocomplete\s*[*^~|$]?=\s*["']?(one-time-code|cc-)/i.test(said)) return true;
  }
  return false;
}

/** The params as stored: the value replaced, everything else kept so the model sees what it asked for. */
export function withheld(params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  for (const k of ["value", "text", "label"]) if (k in out) out[k] = WITHHELD;
  return out;
}
