import type { Pcd, PcdField, PcdForm, SlotBinding, TaskSkill } from "@crumbs/schemas";
import { isSecretName } from "../secrets.ts";
import { relevance, stem, words, type Goal } from "./goal.ts";

// Deterministic skills. Each reads the page capability view (pcd) and the goal, binds its slots to
// the page's fields and actions, and plans two to five steps: browser actions by ref, a `confirm`
// before any step that submits something (the extension then asks the user, and the task waits in
// `awaiting_user`), and a `verify` that perceives the page again and checks the skill's effect.
// A skill that does not fit the page answers undefined; one that fits says how sure it is.

/** What a `verify` step checks on the page it perceives next. */
export type Expectation =
  | { kind: "logged_in"; from_url: string }
  | { kind: "url_changed"; from_url: string }
  | { kind: "results"; from_url: string }
  | { kind: "item_open"; from_url: string; words: string[] };

/** A step as a skill plans it; the controller gives it an id and a status. */
export interface DraftStep {
  call: string;
  params?: Record<string, unknown>;
  label: string;
  risk?: "low" | "medium" | "high";
  alternatives?: string[];
  /** The click's target is the best answer of the query step before it. */
  bind?: "query";
  expect?: Expectation;
}

export interface SkillPlan {
  skill: TaskSkill;
  /** False: a plan that leads toward the goal's skill without finishing it (checkout's way to the form). */
  final?: false;
  confidence: number;
  subgoal: string;
  slots: Record<string, SlotBinding>;
  steps: DraftStep[];
}

export interface SkillInput {
  pcd: Pcd;
  goal: Goal;
  slots: Record<string, SlotBinding>;
}

/** Plans under this confidence are left to exploration or the model. */
export const CONFIDENT = 0.6;

/** A field a skill may type into: not marked secret, and not named like a password, code or card field. */
const typable = (f: PcdField) => !f.secret && !isSecretName(f.label);

const USERNAME = /\b(e-?mail|user(name)?|login|account|phone)\b/i;
const NEXT = /^(next( page)?|more( results)?|›|»|→|older)$/i;
const verify = (label: string, expect: Expectation): DraftStep => ({ call: "verify", params: { pcd: true }, label, expect });

function loginForm(pcd: Pcd): PcdForm | undefined {
  return pcd.forms.find((f) => f.purpose === "login") ?? pcd.forms.find((f) => f.fields.some((x) => x.secret) && f.purpose !== "signup");
}

export function login({ pcd, slots }: SkillInput): SkillPlan | undefined {
  const form = loginForm(pcd);
  if (!form?.submit) return undefined;
  const user = form.fields.find((f) => typable(f) && (f.type === "email" || USERNAME.test(f.label)));
  const secret = form.fields.find((f) => !typable(f));
  const username = slots.username;
  const steps: DraftStep[] = [];
  const bound: Record<string, SlotBinding> = {};
  if (user && username) {
    steps.push({ call: "fill", params: { ref: user.ref, value: username.value }, label: `Fill ${user.label || "the user name"}`, risk: "medium" });
    bound.username = { ...username, ref: user.ref };
  }
  // A password never passes through the bus: the user types it in the page while the sign-in waits
  // for their approval.
  if (secret) bound.password = { value: "(typed by you in the page)", source: "user", ref: secret.ref };
  const ask = secret ? `Type your ${secret.label || "password"} in the page, then approve signing in` : "Approve signing in";
  steps.push({ call: "confirm", label: ask, risk: "high" });
  steps.push({ call: "click", params: { ref: form.submit.ref }, label: `Submit: ${form.submit.label}`, risk: "high" });
  steps.push(verify("Check that you are signed in", { kind: "logged_in", from_url: pcd.url }));
  return { skill: "login", confidence: user && username ? 0.9 : 0.7, subgoal: "sign in", slots: bound, steps };
}

export function search({ pcd, goal, slots }: SkillInput): SkillPlan | undefined {
  const form = pcd.forms.find((f) => f.purpose === "search");
  const field = form?.fields.find(typable);
  const query = slots.query;
  if (!form || !field || !query) return undefined;
  return {
    skill: "search",
    confidence: goal.intent === "search" ? 0.9 : 0.5,
    subgoal: `search for ${query.value}`,
    slots: { query: { ...query, ref: field.ref } },
    steps: [
      { call: "fill", params: { ref: field.ref, value: query.value }, label: `Type "${query.value}" into ${field.label || "search"}`, risk: "medium" },
      { call: "press", params: { ref: field.ref, key: "Enter" }, label: "Search", risk: "medium" },
      verify("Check that results are shown", { kind: "results", from_url: pcd.url }),
    ],
  };
}

/** The slot a field takes, by its label's words or its type (an email field takes an email). */
function slotFor(field: PcdField, slots: Record<string, SlotBinding>): [string, SlotBinding] | undefined {
  if (!typable(field)) return undefined;
  const own = new Set(words(field.label).map(stem));
  for (const [name, b] of Object.entries(slots)) {
    if (name === "query" || name === "month") continue;
    if (name.split("_").some((w) => own.has(stem(w)))) return [name, b];
  }
  if (field.type === "email" && slots.username) return ["username", slots.username];
  return undefined;
}

export function fillForm({ pcd, goal, slots }: SkillInput): SkillPlan | undefined {
  let best: { form: PcdForm; fills: Array<[PcdField, string, SlotBinding]>; score: number } | undefined;
  for (const form of pcd.forms) {
    if (form.purpose === "login" || form.purpose === "search" || !form.submit) continue;
    const fills = form.fields.flatMap((f) => {
      const s = slotFor(f, slots);
      return s ? [[f, s[0], s[1]] as [PcdField, string, SlotBinding]] : [];
    });
    if (!fills.length) continue;
    const named = relevance(`${form.label ?? ""} ${form.purpose ?? ""} ${form.submit.label}`, goal.objectWords) >= 0.6 ? 0.3 : 0;
    const score = fills.length / Math.max(1, form.fields.filter(typable).length) + named;
    if (!best || score > best.score) best = { form, fills, score };
  }
  const form = best?.form;
  const submit = form?.submit;
  if (!best || !form || !submit) return undefined;
  const { fills } = best;
  const steps: DraftStep[] = fills.slice(0, 3).map(([f, , b]) => ({ call: "fill", params: { ref: f.ref, value: b.value }, label: `Fill ${f.label}`, risk: "medium" as const }));
  steps.push({ call: "confirm", label: `Approve sending the form${form.label ? ` "${form.label}"` : ""}`, risk: "high" });
  steps.push({ call: "click", params: { ref: submit.ref }, label: `Submit: ${submit.label}`, risk: "high" });
  steps.push(verify("Check that the form was sent", { kind: "url_changed", from_url: pcd.url }));
  return {
    skill: "fill_form",
    confidence: Math.min(0.95, 0.4 + best.score / 2),
    subgoal: `fill in ${form.label ?? "the form"}`,
    slots: Object.fromEntries(fills.map(([f, name, b]) => [name, { ...b, ref: f.ref }])),
    steps: steps.slice(0, 5),
  };
}

export function paginate({ pcd, goal }: SkillInput): SkillPlan | undefined {
  const next = pcd.actions.find((a) => NEXT.test(a.label.trim()));
  if (!next) return undefined;
  return {
    skill: "paginate",
    confidence: goal.intent === "paginate" ? 0.9 : 0.3,
    subgoal: "go to the next page",
    slots: {},
    steps: [
      { call: "click", params: { ref: next.ref }, label: `Click ${next.label}`, risk: "low" },
      verify("Check that the next page is shown", { kind: "url_changed", from_url: pcd.url }),
    ],
  };
}

export function navigateMenu({ pcd, goal }: SkillInput): SkillPlan | undefined {
  const links = pcd.actions
    .filter((a) => (a.kind === "navigate" || a.kind === "expand") && relevance(a.label, goal.objectWords) === 1)
    .sort((a, b) => Number(b.landmark?.startsWith("navigation") ?? false) - Number(a.landmark?.startsWith("navigation") ?? false));
  const link = links[0];
  if (!link) return undefined;
  return {
    skill: "navigate_menu",
    confidence: 0.8,
    subgoal: `open ${link.label}`,
    slots: {},
    steps: [
      { call: "click", params: { ref: link.ref }, label: `Open ${link.label}`, risk: "low", alternatives: links.slice(1, 5).map((l) => `ref ${l.ref}`) },
      verify(`Check that ${link.label} opened`, { kind: "url_changed", from_url: pcd.url }),
    ],
  };
}

export function openItem({ pcd, goal }: SkillInput): SkillPlan | undefined {
  const named = pcd.collections.some((c) => [c.label, ...(c.samples ?? []), ...c.template.map((t) => t.label)].some((t) => t && relevance(t, goal.objectWords) === 1)) || relevance(pcd.title, goal.objectWords) === 1;
  if (!named) return undefined;
  const which = goal.itemWords.join(" ") || goal.objectWords.join(" ");
  const query = `${goal.verb ?? "open"} ${which}`.trim();
  return {
    skill: "open_item",
    confidence: goal.itemWords.length ? 0.9 : 0.65,
    subgoal: `${goal.verb ?? "open"} ${which}`,
    slots: goal.itemWords.length ? { item: { value: which, source: "goal" } } : {},
    steps: [
      { call: "query", params: { query, limit: 5 }, label: `Find "${query}"`, risk: "low" },
      { call: "click", label: `${goal.verb ? goal.verb[0]!.toUpperCase() + goal.verb.slice(1) : "Open"} ${which}`, risk: "medium", bind: "query" },
      verify(`Check that ${which} opened`, { kind: "item_open", from_url: pcd.url, words: words(which) }),
    ],
  };
}

const TO_CHECKOUT = /^(proceed to |go to )?check ?out$/i;

/**
 * Check out up to the user's confirmation: from a cart, the way to the checkout form; on the form,
 * the fields the goal gives values for (never a card number or code: the user types those), then
 * the order is placed only once the user approves it.
 */
export function checkout({ pcd, goal, slots }: SkillInput): SkillPlan | undefined {
  const form = pcd.forms.find((f) => f.purpose === "checkout" && f.submit);
  const confidence = goal.intent === "checkout" ? 0.9 : 0.3;
  if (form?.submit) {
    const fills = form.fields.flatMap((f) => {
      const bound = slotFor(f, slots);
      return bound ? [{ f, name: bound[0], b: bound[1] }] : [];
    });
    const secret = form.fields.find((f) => !typable(f));
    const steps: DraftStep[] = fills.slice(0, 3).map(({ f, b }) => ({ call: "fill", params: { ref: f.ref, value: b.value }, label: `Fill ${f.label}`, risk: "medium" as const }));
    const ask = secret ? `Fill in ${secret.label || "the payment details"} in the page, then approve placing the order` : "Approve placing the order";
    steps.push({ call: "confirm", label: ask, risk: "high" });
    steps.push({ call: "click", params: { ref: form.submit.ref }, label: `Place the order: ${form.submit.label}`, risk: "high" });
    steps.push(verify("Check that the order was placed", { kind: "url_changed", from_url: pcd.url }));
    return { skill: "checkout", confidence, subgoal: "place the order", slots: Object.fromEntries(fills.map(({ f, name, b }) => [name, { ...b, ref: f.ref }])), steps: steps.slice(0, 5) };
  }
  const go = pcd.actions.find((a) => TO_CHECKOUT.test(a.label.trim()));
  if (!go) return undefined;
  return {
    skill: "checkout",
    final: false,
    confidence,
    subgoal: "go to checkout",
    slots: {},
    steps: [
      { call: "click", params: { ref: go.ref }, label: `Click ${go.label}`, risk: "medium" },
      verify("Check that the checkout opened", { kind: "url_changed", from_url: pcd.url }),
    ],
  };
}

export const SKILLS: Record<TaskSkill, (input: SkillInput) => SkillPlan | undefined> = {
  login,
  search,
  fill_form: fillForm,
  paginate,
  navigate_menu: navigateMenu,
  open_item: openItem,
  checkout,
};

/** Whether the page shows what a verify step expects, judged on the page perceived after the step. */
export function expectationMet(e: Expectation, pcd: Pcd): boolean {
  switch (e.kind) {
    case "logged_in":
      return pcd.loginState === "in" || (pcd.url !== e.from_url && !loginForm(pcd));
    case "url_changed":
      return pcd.url !== e.from_url;
    case "results":
      return pcd.url !== e.from_url || pcd.collections.length > 0;
    case "item_open": {
      const own = new Set(words(`${pcd.title} ${pcd.url}`).map(stem));
      return pcd.url !== e.from_url && e.words.every((w) => own.has(stem(w)));
    }
  }
}

export interface QueryAnswer {
  ref: string;
  role: string;
  name: string;
}

/** How many of the wanted words (the item's and the verb) an answer's name has. */
function wantedIn(a: QueryAnswer, want: readonly string[]): number {
  const own = new Set(words(a.name).map(stem));
  return want.filter((w) => own.has(w)).length;
}

const wanted = (itemWords: readonly string[], verb: string | undefined) => [...itemWords.flatMap((w) => words(w)), ...(verb ? [verb] : [])].map(stem);

/**
 * Whether the query's answers leave the choice open: none has every wanted word, or two do. The
 * scout, when the agent has one, is asked then.
 */
export function ambiguous(answers: readonly QueryAnswer[], itemWords: readonly string[], verb: string | undefined): boolean {
  const want = wanted(itemWords, verb);
  if (!want.length) return answers.length > 1;
  return answers.filter((a) => wantedIn(a, want) === want.length).length !== 1;
}

/**
 * The best answer of a `query` for a click on an item: a link or button whose name has every word
 * of the item and the verb; the rest, in order, are its fallbacks.
 */
export function rankAnswers(answers: readonly QueryAnswer[], itemWords: readonly string[], verb: string | undefined): QueryAnswer[] {
  const want = wanted(itemWords, verb);
  const score = (a: QueryAnswer) => wantedIn(a, want) + (a.role === "link" || a.role === "button" ? 0.5 : 0);
  return answers
    .map((a, i) => ({ a, s: score(a), i }))
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.a);
}
