import MiniSearch from "minisearch";
import { MAX_QUERY_RESULTS } from "@crumbs/schemas/browser-action";
import { landmarkText, type Affordance, type PageModel } from "./page-model.ts";

// `query`: the page's elements ranked by words, BM25 (minisearch) over what a user would call them:
// the accessible name, the role in everyday words ("field", "box", "dropdown"), the place (landmark,
// form and what it is for, collection), the text beside it and the heading above it, and where a link
// goes. Each answer says why it matched. Bounded: at most MAX_DOCS elements are indexed (document
// order), a query keeps MAX_TERMS words, and at most MAX_QUERY_RESULTS (the contract's) answers come back.

export const MAX_DOCS = 3000;
const MAX_TERMS = 12;
export const DEFAULT_RESULTS = 5;

/** What people call each role, so "email field" and "search box" find textboxes and searchboxes. */
const ROLE_WORDS: Record<string, string> = {
  button: "button btn",
  link: "link",
  textbox: "field input textbox text box",
  searchbox: "search box field input searchbox",
  combobox: "dropdown select combobox menu choose field",
  listbox: "list select choose listbox",
  option: "option choice",
  checkbox: "checkbox check tick box toggle",
  radio: "radio option choice",
  switch: "switch toggle",
  tab: "tab",
  menuitem: "menu item",
  menuitemcheckbox: "menu item checkbox",
  menuitemradio: "menu item option",
  slider: "slider range",
  spinbutton: "number field spin",
  treeitem: "tree item",
};

const TYPE_WORDS: Record<string, string> = {
  email: "email e-mail address",
  password: "password",
  tel: "phone telephone number",
  search: "search",
  url: "url address website",
  number: "number amount",
  date: "date",
  textarea: "text area message comment",
  submit: "submit send",
};

/** What people call each landmark: "the footer", "the sidebar", "the menu". */
const LANDMARK_WORDS: Record<string, string> = {
  banner: "header top",
  navigation: "nav navigation menu",
  main: "main content",
  complementary: "sidebar aside",
  contentinfo: "footer bottom",
  search: "search",
  dialog: "dialog popup modal",
};

/** Words that say nothing about which element: "the", "please", "click", ... */
const STOP = new Set(
  "a an the to of for on in at by my me i we you your our this that these those with and or is are be it its please click press tap hit find where which want go page element thing one".split(
    " ",
  ),
);

export interface QueryAnswer {
  ref: string;
  role: string;
  name: string;
  score: number;
  /** Why it matched, in words: `name has "checkout"; a button; in main`. */
  reason: string;
  /** A password, one-time-code or payment field: agents may not type into it. */
  secret?: true;
}

export interface QueryResult {
  results: QueryAnswer[];
  /** Elements in the index. */
  indexed: number;
  /** Elements past MAX_DOCS, not searched. */
  not_indexed?: number;
}

interface Doc {
  id: number;
  name: string;
  kind: string;
  place: string;
  context: string;
  href: string;
}

function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  return t.length === 0 || STOP.has(t) ? null : t;
}

function placeOf(m: PageModel, a: Affordance): string {
  const parts: string[] = [];
  const landmark = a.landmark === undefined ? undefined : m.landmarks[a.landmark];
  if (landmark) parts.push(LANDMARK_WORDS[landmark.role] ?? landmark.role, landmark.label ?? "");
  const form = a.form === undefined ? undefined : m.forms[a.form];
  if (form?.label) parts.push(form.label, "form");
  const collection = a.item ? m.collections[a.item.collection] : undefined;
  if (collection?.label) parts.push(collection.label);
  return parts.join(" ");
}

/** The place in words for a reason: `form "Newsletter" in main`. */
function whereOf(m: PageModel, a: Affordance): string {
  const form = a.form === undefined ? undefined : m.forms[a.form];
  const collection = a.item ? m.collections[a.item.collection] : undefined;
  const landmark = landmarkText(a.landmark === undefined ? undefined : m.landmarks[a.landmark]);
  const parts = [form?.label ? `form "${form.label}"` : "", collection?.label ? `"${collection.label}"` : "", landmark ?? ""].filter(Boolean);
  return parts.join(" in ") || "the page";
}

function hrefWords(href: string | undefined): string {
  if (!href) return "";
  return href.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[/?#=&._-]+/g, " ");
}

function docOf(m: PageModel, a: Affordance, id: number): Doc {
  return {
    id,
    name: a.name,
    kind: `${ROLE_WORDS[a.role] ?? a.role} ${a.type ? (TYPE_WORDS[a.type] ?? "") : ""}`,
    place: placeOf(m, a),
    context: [a.near, a.heading].filter(Boolean).join(" "),
    href: hrefWords(a.href),
  };
}

function reasonOf(a: Affordance, m: PageModel, match: Record<string, string[]>): string {
  const byField = new Map<string, string[]>();
  for (const [term, fields] of Object.entries(match)) for (const f of fields) byField.set(f, [...(byField.get(f) ?? []), term]);
  const parts: string[] = [];
  const terms = (f: string) => (byField.get(f) ?? []).map((t) => `"${t}"`).join(", ");
  if (byField.has("name")) parts.push(`name has ${terms("name")}`);
  if (byField.has("kind")) parts.push(`a ${a.role}${a.type && a.type !== a.role ? ` (${a.type})` : ""}`);
  if (byField.has("place")) parts.push(`in ${whereOf(m, a)}`);
  if (byField.has("context")) parts.push(`near "${a.near ?? a.heading ?? ""}"`);
  if (byField.has("href")) parts.push(`links to ${a.href ?? ""}`);
  return parts.join("; ");
}

/** An index over a page model's elements; build once per walk, query as often as needed. */
export function indexPage(m: PageModel) {
  const docs = m.affordances.slice(0, MAX_DOCS).map((a, i) => docOf(m, a, i));
  const index = new MiniSearch<Doc>({ fields: ["name", "kind", "place", "context", "href"], processTerm });
  index.addAll(docs);
  const notIndexed = Math.max(0, m.affordances.length - docs.length);
  return {
    indexed: docs.length,
    search(query: string, limit = DEFAULT_RESULTS): QueryResult {
      const words = query.split(/[\s,.;:!?()"']+/).filter((w) => processTerm(w) !== null).slice(0, MAX_TERMS);
      const out: QueryResult = { results: [], indexed: docs.length };
      if (notIndexed) out.not_indexed = notIndexed;
      if (words.length === 0) return out;
      const hits = index.search(words.join(" "), {
        boost: { name: 4, kind: 2, place: 1, context: 1, href: 0.5 },
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: "OR",
        // Visible without scrolling breaks near-ties: what the user sees is more likely meant.
        boostDocument: (id) => (m.affordances[id as number]?.aboveFold ? 1.05 : 1),
      });
      out.results = hits.slice(0, Math.min(limit, MAX_QUERY_RESULTS)).map((h) => {
        const a = m.affordances[h.id as number]!;
        const answer: QueryAnswer = { ref: a.ref, role: a.role, name: a.name, score: Math.round(h.score * 100) / 100, reason: reasonOf(a, m, h.match) };
        if (a.states?.secret) answer.secret = true;
        return answer;
      });
      return out;
    },
  };
}
