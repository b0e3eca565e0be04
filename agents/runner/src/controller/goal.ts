import type { GoalPredicate, SlotBinding, TaskSkill } from "@crumbs/schemas";

// The goal in words, read without a model: what the user wants done (the intent), the thing it is
// about (object words such as "invoice"), qualifiers that pick one item ("last month" -> October
// 2026, from the injected clock), values given for slots (an email, `name: Ada`, a quoted query),
// and the goal predicates that recognise the page where it can be done.

export type Intent = "login" | "search" | "paginate" | "fill_form" | "open_item" | "navigate" | "checkout";

export interface Goal {
  intent: Intent;
  /** The skill that finishes the task once the goal page is reached. */
  finalSkill: TaskSkill;
  /** Stemmed words naming what the goal is about ("invoice"). */
  objectWords: string[];
  /** Words that pick one item among many ("October 2026"), in the page's own spelling. */
  itemWords: string[];
  /** The verb the page uses for the action on an item ("download", "open"). */
  verb: string | undefined;
  slots: Record<string, SlotBinding>;
  predicates: GoalPredicate[];
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const STOP = new Set(
  "a an the my our your me i to of for in on at and or please with from by this that these those it its is be can could would you last next previous current month's month year week today page site all some any as into".split(" "),
);
const VERBS: Record<string, Intent> = {
  download: "open_item",
  open: "open_item",
  view: "open_item",
  show: "open_item",
  get: "open_item",
  read: "open_item",
  find: "search",
  search: "search",
  look: "search",
  fill: "fill_form",
  subscribe: "fill_form",
  send: "fill_form",
  submit: "fill_form",
  go: "navigate",
  navigate: "navigate",
};
const FINAL_SKILL: Record<Intent, TaskSkill> = {
  login: "login",
  search: "search",
  paginate: "paginate",
  fill_form: "fill_form",
  open_item: "open_item",
  navigate: "navigate_menu",
  checkout: "checkout",
};

/** Lower case, plural and possessive endings off: "Invoices" and "invoice's" are "invoice". */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/[’']s$/, "").replace(/[^a-z0-9-]/g, "");
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  return w;
}

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9@.'’_-]+/)
    .map((w) => w.replace(/^[.'’-]+|[.'’-]+$/g, ""))
    .filter(Boolean);
}

/** A month as the page spells it ("October 2026") and as an ISO month (2026-10). */
export function monthOf(d: Date, offset: number): { label: string; iso: string } {
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
  const name = MONTHS[m.getUTCMonth()]!;
  return {
    label: `${name[0]!.toUpperCase()}${name.slice(1)} ${m.getUTCFullYear()}`,
    iso: `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, "0")}`,
  };
}

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/;
const PAIR = /\b([a-z][a-z_]{0,30})\s*[:=]\s*("[^"]{0,500}"|[^,;\s][^,;]{0,500})/gi;

export function parseGoal(text: string, now: Date): Goal {
  const lower = text.toLowerCase();
  const slots: Record<string, SlotBinding> = {};
  const itemWords: string[] = [];

  const email = EMAIL.exec(text)?.[0];
  if (email) slots.username = { value: email, source: "goal" };
  const quoted = /"([^"]{1,200})"|“([^”]{1,200})”/.exec(text);
  if (/\blast month\b|\bprevious month\b/.test(lower)) {
    const m = monthOf(now, -1);
    slots.month = { value: m.iso, source: "goal" };
    itemWords.push(m.label);
  } else if (/\bthis month\b|\bcurrent month\b/.test(lower)) {
    const m = monthOf(now, 0);
    slots.month = { value: m.iso, source: "goal" };
    itemWords.push(m.label);
  } else {
    const named = new RegExp(`\\b(${MONTHS.join("|")})\\s+(\\d{4})\\b`).exec(lower);
    if (named) {
      const m = monthOf(new Date(Date.UTC(Number(named[2]), MONTHS.indexOf(named[1]!), 1)), 0);
      slots.month = { value: m.iso, source: "goal" };
      itemWords.push(m.label);
    }
  }
  // `name: Ada, email: ada@x.test`: values for a form's fields, by label.
  for (const m of text.matchAll(PAIR)) {
    const key = m[1]!.trim().toLowerCase().replace(/\s+/g, "_");
    if (!/^[a-z_]{1,40}$/.test(key) || slots[key]) continue;
    slots[key] = { value: m[2]!.replace(/^"|"$/g, "").trim(), source: "goal" };
  }

  const tokens = words(text);
  let intent: Intent | undefined;
  let verb: string | undefined;
  if (/\bnext page\b|\bpage \d+\b|\bmore results\b/.test(lower)) intent = "paginate";
  else if (/\bcheck ?out\b|\bbuy\b|\bpurchase\b|\bplace (?:the |my )?order\b/.test(lower)) intent = "checkout";
  for (const t of tokens) {
    if (intent) break;
    const v = VERBS[t];
    if (v) {
      intent = v;
      verb = t;
    }
  }
  if (!intent && /\b(log|sign) ?in\b/.test(lower)) intent = "login";
  intent ??= "open_item";
  if (intent === "search" && (quoted?.[1] ?? quoted?.[2])) slots.query = { value: (quoted[1] ?? quoted[2])!, source: "goal" };

  const itemSet = new Set(itemWords.flatMap((w) => words(w)));
  const objectWords = [
    ...new Set(
      tokens
        .filter((t) => !STOP.has(t) && !VERBS[t] && !EMAIL.test(t) && !itemSet.has(t) && !/^\d+$/.test(t) && !MONTHS.includes(t))
        .filter((t) => !/^(log|sign|in|up|as|for|look|check|out|checkout|buy|purchase|place|order)$/.test(t))
        .map(stem)
        .filter((t) => t.length > 1),
    ),
  ];
  if (intent === "search" && !slots.query) {
    // "search for red shoes": the words after the verb are the query.
    const after = lower.split(/\b(?:search|find|look)\b(?:\s+(?:for|up))?/)[1]?.trim();
    if (after) slots.query = { value: after.slice(0, 200), source: "goal" };
  }

  const predicates: GoalPredicate[] = [];
  if (intent === "login") predicates.push({ kind: "form", purpose: "login" });
  else if (intent === "search") predicates.push({ kind: "form", purpose: "search" });
  else if (intent === "fill_form") predicates.push({ kind: "form", ...(objectWords.length ? { words: objectWords.slice(0, 6) } : {}) });
  else if (intent === "paginate") predicates.push({ kind: "action", words: ["next"] });
  else if (intent === "checkout") predicates.push({ kind: "form", purpose: "checkout" }, { kind: "action", words: ["checkout"] });
  else if (objectWords.length) {
    predicates.push({ kind: "collection", words: objectWords.slice(0, 6), ...(itemWords.length ? { fields: itemWords } : {}) });
    if (intent === "navigate") predicates.push({ kind: "text", words: objectWords.slice(0, 6) });
  }
  return { intent, finalSkill: FINAL_SKILL[intent], objectWords, itemWords, verb, slots, predicates };
}

// Where a thing usually lives on a site: exploration follows these words when the object's own word
// is not on the page ("invoices" sit under Billing, Billing under Account).
const RELATED: Record<string, string[]> = {
  invoice: ["billing", "bill", "payment", "statement", "document", "plan", "subscription"],
  receipt: ["billing", "payment", "order", "purchase"],
  order: ["purchase", "history", "shop"],
  payment: ["billing", "wallet", "card"],
  profile: ["setting", "preference"],
  password: ["security", "setting"],
  product: ["shop", "catalog", "store"],
  message: ["inbox", "mail"],
};
const CONTAINERS = new Set(["account", "dashboard", "my", "setting", "menu", "more", "overview"]);

/**
 * How promising a link's label is for reaching the goal, 0..1: its own word (1), a word of where
 * such things live (0.6), a generic container such as Account (0.3), anything else (0).
 */
export function relevance(label: string, objectWords: readonly string[]): number {
  const ws = words(label).map(stem);
  if (ws.some((w) => objectWords.includes(w))) return 1;
  const related = new Set(objectWords.flatMap((o) => RELATED[o] ?? []));
  if (ws.some((w) => related.has(w))) return 0.6;
  if (ws.some((w) => CONTAINERS.has(w))) return 0.3;
  return 0;
}
