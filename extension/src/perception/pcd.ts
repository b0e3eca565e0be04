import { PCD_LIMITS, type Pcd, type PcdAction, type PcdCollection, type PcdField, type PcdForm } from "@crumbs/schemas/pcd";
import type { VirtualNode } from "../snapshot/virtual-node.ts";
import { formPurpose } from "./form-purpose.ts";
import { buildPageModel, landmarkText, type Affordance, type FormGroup, type PageModel } from "./page-model.ts";

// The page capability descriptor (`context.pcd`, @crumbs/schemas/pcd) from the snapshot's tree:
// deterministic (same tree, same pcd), capped (PCD_LIMITS) and de-duplicated. Each fact once: a form's
// fields and its submit button are in `forms`, not again in `actions`; what every item of a collection
// offers is its template (the first item's refs), not one action per item; actions with the same role,
// label and landmark are one entry with a count.

const LOGGED_IN = /\b(sign|log)\s?out\b|\blogout\b|\bsignout\b/i;
const LOGGED_OUT = /\b(sign|log)\s?in\b|\blogin\b|\bsignin\b|\bsign\s?up\b|\bregister\b|\bcreate (an )?account\b/i;
const AUTH = /\b(sign|log)\s?(in|out|up)\b|\blog(in|out)\b|\bsign(in|out)\b|\bregister\b|\bcreate (an )?account\b/i;
const SEARCH_WORD = /\bsearch\b/i;

/** Where an action is weighs in what the cap keeps: the page's main content first, its footer last. */
const LANDMARK_WEIGHT: Record<string, number> = { main: 3, dialog: 4, search: 2.5, form: 2.5, banner: 2, region: 2, navigation: 1.5, complementary: 1, contentinfo: 0.5 };
const CHOICE_ROLES = new Set(["combobox", "listbox", "option", "menuitemradio", "radio"]);
const TOGGLE_ROLES = new Set(["checkbox", "switch", "menuitemcheckbox"]);

export interface PageFacts {
  url: string;
  title: string;
}

function clip(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > PCD_LIMITS.label ? `${t.slice(0, PCD_LIMITS.label - 1)}…` : t;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

function kindOf(a: Affordance): PcdAction["kind"] {
  if (AUTH.test(a.name)) return "auth";
  if (a.role === "link") return "navigate";
  if (a.type === "submit") return SEARCH_WORD.test(a.name) ? "search" : "submit";
  if (TOGGLE_ROLES.has(a.role)) return "toggle";
  if (CHOICE_ROLES.has(a.role)) return "choose";
  if (a.states?.expanded !== undefined) return "expand";
  if (SEARCH_WORD.test(a.name)) return "search";
  return undefined;
}

function loginState(m: PageModel): Pcd["loginState"] {
  const acts = m.affordances.filter((a) => a.role === "link" || a.role === "button" || a.role === "menuitem");
  if (acts.some((a) => LOGGED_IN.test(a.name))) return "in";
  if (acts.some((a) => LOGGED_OUT.test(a.name)) || m.affordances.some((a) => a.type === "password")) return "out";
  return "unknown";
}

function fieldType(a: Affordance): string {
  if (a.type) return a.type;
  return a.role === "textbox" ? "text" : a.role;
}

/** The button that sends a form: its submit-type button, else its last button. */
function submitOf(m: PageModel, f: FormGroup): Affordance | undefined {
  const buttons = f.members.map((i) => m.affordances[i]!).filter((a) => a.role === "button");
  return buttons.find((b) => b.type === "submit") ?? (f.isForm ? buttons[buttons.length - 1] : undefined);
}

interface Built {
  forms: PcdForm[];
  /** Affordances the forms already show (fields and submit buttons). */
  shown: Set<number>;
  cutFields: number;
  cutForms: number;
}

function buildForms(m: PageModel): Built {
  const shown = new Set<number>();
  const forms: PcdForm[] = [];
  let budget: number = PCD_LIMITS.fields;
  let cutFields = 0;
  let cutForms = 0;
  for (const f of m.forms) {
    const fieldIdx = f.members.filter((i) => m.affordances[i]!.role !== "button");
    if (fieldIdx.length === 0) continue;
    if (forms.length >= PCD_LIMITS.forms) {
      cutForms++;
      cutFields += fieldIdx.length;
      continue;
    }
    const submit = submitOf(m, f);
    const landmark = f.landmark === undefined ? undefined : m.landmarks[f.landmark];
    const fields: PcdField[] = [];
    for (const i of fieldIdx) {
      const a = m.affordances[i]!;
      shown.add(i);
      if (budget <= 0) {
        cutFields++;
        continue;
      }
      budget--;
      const field: PcdField = { ref: a.ref, label: clip(a.name), type: fieldType(a) };
      if (a.states?.required) field.required = true;
      if (a.states?.secret) field.secret = true;
      fields.push(field);
    }
    const where = landmarkText(landmark);
    const form: PcdForm = {
      id: `f${forms.length + 1}`,
      ...(f.label ? { label: clip(f.label) } : {}),
      purpose: formPurpose({
        label: f.label,
        landmarkRole: f.search ? "search" : landmark?.role,
        fields: fieldIdx.map((i) => m.affordances[i]!).map((a) => ({ role: a.role, type: a.type, label: a.name, secret: a.states?.secret })),
        submitLabel: submit?.name,
      }),
      ...(where ? { landmark: clip(where) } : {}),
      fields,
    };
    if (submit) {
      form.submit = { ref: submit.ref, label: clip(submit.name) };
      shown.add(m.affordances.indexOf(submit));
    }
    forms.push(form);
  }
  return { forms, shown, cutFields, cutForms };
}

interface Candidate {
  action: PcdAction;
  score: number;
  order: number;
}

function buildActions(m: PageModel, shown: Set<number>, collectionIds: ReadonlyMap<number, string>): { actions: PcdAction[]; cut: number } {
  const byKey = new Map<string, Candidate>();
  m.affordances.forEach((a, order) => {
    if (shown.has(order) || (!a.name && a.role !== "button" && a.role !== "link")) return;
    const landmark = a.landmark === undefined ? undefined : m.landmarks[a.landmark];
    // An action every item of a collection has is in that collection's template (with the first
    // item's ref), not once per item here.
    if (a.item && collectionIds.has(a.item.collection)) return;
    const key = `${a.role}|${a.name.toLowerCase()}|${landmarkText(landmark) ?? ""}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.action.count = (existing.action.count ?? 1) + 1;
      return;
    }
    const action: PcdAction = { ref: a.ref, label: clip(a.name), role: a.role };
    const kind = kindOf(a);
    if (kind) action.kind = kind;
    const where = landmarkText(landmark);
    if (where) action.landmark = clip(where);
    if (a.aboveFold) action.aboveFold = true;
    const score =
      (landmark ? (LANDMARK_WEIGHT[landmark.role] ?? 1) : 2) +
      (a.aboveFold ? 2 : 0) +
      (a.role === "button" ? 1 : 0) +
      (kind === "auth" || kind === "search" ? 1.5 : 0);
    byKey.set(key, { action, score, order });
  });
  const all = [...byKey.values()];
  const kept = [...all].sort((x, y) => y.score - x.score || x.order - y.order).slice(0, PCD_LIMITS.actions);
  kept.sort((x, y) => x.order - y.order);
  return { actions: kept.map((c) => c.action), cut: all.length - kept.length };
}

function buildCollections(m: PageModel): { collections: PcdCollection[]; ids: Map<number, string>; cut: number } {
  const ids = new Map<number, string>();
  const collections: PcdCollection[] = [];
  let cut = 0;
  m.collections.forEach((c, index) => {
    if (collections.length >= PCD_LIMITS.collections) return void cut++;
    const first = c.items.find((it) => it.members.length > 0);
    if (!first) return;
    const id = `c${collections.length + 1}`;
    ids.set(index, id);
    const seen = new Set<string>();
    const template: PcdCollection["template"] = [];
    for (const i of first.members) {
      const a = m.affordances[i]!;
      // The item's own label varies per item: its role is the template, its text the sample.
      const varying = a.name === first.label;
      const key = `${a.role}|${varying ? "" : a.name}`;
      if (seen.has(key) || template.length >= PCD_LIMITS.templateParts) continue;
      seen.add(key);
      template.push(varying || !a.name ? { role: a.role, ref: a.ref } : { role: a.role, label: clip(a.name), ref: a.ref });
    }
    const out: PcdCollection = { id, ...(c.label ? { label: clip(c.label) } : {}), itemRole: c.itemRole, count: c.count, template };
    const samples = c.items.map((it) => it.label).filter((l): l is string => !!l).slice(0, PCD_LIMITS.samples).map(clip);
    if (samples.length) out.samples = samples;
    collections.push(out);
  });
  return { collections, ids, cut };
}

function buildLandmarks(m: PageModel): { landmarks: Pcd["landmarks"]; cut: number } {
  const seen = new Set<string>();
  const unique = m.landmarks.filter((l) => {
    const key = landmarkText(l)!;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const kept = unique.slice(0, PCD_LIMITS.landmarks).map((l) => (l.label ? { role: l.role, label: clip(l.label) } : { role: l.role }));
  return { landmarks: kept, cut: unique.length - kept.length };
}

/** The pcd of a page model (a snapshot tree's, built once for both the pcd and the query index). */
export function pcdFromModel(m: PageModel, page: PageFacts): Pcd {
  const { landmarks, cut: cutLandmarks } = buildLandmarks(m);
  const { collections, ids, cut: cutCollections } = buildCollections(m);
  const { forms, shown, cutFields, cutForms } = buildForms(m);
  const { actions, cut: cutActions } = buildActions(m, shown, ids);
  const pcd: Pcd = {
    url: page.url.slice(0, 8000),
    origin: originOf(page.url),
    title: page.title.slice(0, 1000),
    loginState: loginState(m),
    landmarks,
    actions,
    forms,
    collections,
  };
  const truncated: NonNullable<Pcd["truncated"]> = {};
  if (cutLandmarks) truncated.landmarks = cutLandmarks;
  if (cutActions) truncated.actions = cutActions;
  if (cutFields) truncated.fields = cutFields;
  if (cutForms) truncated.forms = cutForms;
  if (cutCollections) truncated.collections = cutCollections;
  if (Object.keys(truncated).length) pcd.truncated = truncated;
  return pcd;
}

/** The pcd of a snapshot tree. */
export function buildPcd(root: VirtualNode, page: PageFacts): Pcd {
  return pcdFromModel(buildPageModel(root), page);
}
