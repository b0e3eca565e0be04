import type { States, VirtualNode } from "../snapshot/virtual-node.ts";

// One pass over the snapshot's tree (the walker's VirtualNode tree, frames stitched in) that puts
// every element with a ref in its place: the landmark it is in, its form, the collection item it
// belongs to, the heading above it and the text beside it. The pcd (pcd.ts) compacts this model and
// the query index (search.ts) searches it, so both see the page exactly as the snapshot does and
// answer with the snapshot's refs. Pure: plain data in, plain data out.

/** Landmark roles as the walker computes them (form and region only when named). */
const LANDMARK_ROLES = new Set(["banner", "navigation", "main", "complementary", "contentinfo", "search", "form", "region", "dialog"]);
/** Roles whose repeated children make a collection. */
const ITEM_ROLES = new Set(["listitem", "row", "article", "treeitem"]);
/** Roles a user types into or chooses with: a form's fields. */
const FIELD_ROLES = new Set(["textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "switch", "spinbutton", "slider"]);
/** A collection needs at least this many items. */
const MIN_ITEMS = 3;
const NEAR_CHARS = 100;

export interface Landmark {
  role: string;
  label?: string;
}

export interface Affordance {
  ref: string;
  role: string;
  name: string;
  /** Input or button type from the walker (email, password, submit, ...). */
  type?: string;
  states?: States;
  href?: string;
  /** Index into PageModel.landmarks of the innermost landmark holding it. */
  landmark?: number;
  /** Index into PageModel.forms. */
  form?: number;
  /** The collection item it belongs to. */
  item?: { collection: number; index: number };
  /** The nearest heading before it. */
  heading?: string;
  /** Text beside it: its item's label, or the text right before it. */
  near?: string;
  aboveFold: boolean;
}

export interface FormGroup {
  /** A real form element (or a search landmark); false: fields outside any form, grouped by landmark. */
  isForm: boolean;
  /** A search landmark (role search, or a form with role=search). */
  search?: boolean;
  label?: string;
  landmark?: number;
  /** Indexes into PageModel.affordances, in document order. */
  members: number[];
}

export interface CollectionGroup {
  label?: string;
  itemRole: string;
  count: number;
  landmark?: number;
  /** Per item (in order) the affordance indexes it holds, and its label. */
  items: Array<{ label?: string; members: number[] }>;
}

export interface PageModel {
  landmarks: Landmark[];
  affordances: Affordance[];
  forms: FormGroup[];
  collections: CollectionGroup[];
}

interface Ctx {
  landmark?: number;
  form?: number;
  item?: { collection: number; index: number };
  /** Nearest named container (list, table, grid, region) for a collection's label. */
  container?: string;
}

interface State {
  model: PageModel;
  /** The last heading passed, and the landmark it was in: it heads only what is in the same landmark. */
  heading?: { text: string; landmark: number | undefined };
  lastText?: string;
  /** Fields outside any form, grouped per landmark: landmark index (or -1) to form index. */
  looseForms: Map<number, number>;
}

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** `navigation "Primary"` or `main`: how a landmark is named in the pcd and in search reasons. */
export function landmarkText(l: Landmark | undefined): string | undefined {
  if (!l) return undefined;
  return l.label ? `${l.role} "${l.label}"` : l.role;
}

/** The label of a collection item: its first heading, else its first link, else its first text. */
function itemLabel(node: VirtualNode): string | undefined {
  let link: string | undefined;
  let text: string | undefined;
  const stack = [...(node.children ?? [])].reverse();
  let seen = 0;
  while (stack.length && seen++ < 200) {
    const n = stack.pop()!;
    if (n.role === "heading" && n.name) return clip(n.name, NEAR_CHARS);
    if (!link && n.role === "link" && n.name) link = n.name;
    if (!text && n.role === "text" && n.text) text = n.text;
    for (let i = (n.children?.length ?? 0) - 1; i >= 0; i--) stack.push(n.children![i]!);
  }
  const label = link ?? text ?? node.name;
  return label ? clip(label, NEAR_CHARS) : undefined;
}

function headingFor(st: State, ctx: Ctx): string | undefined {
  return st.heading && st.heading.landmark === ctx.landmark ? st.heading.text : undefined;
}

function hasRef(node: VirtualNode): boolean {
  return node.ref !== undefined || (node.children ?? []).some(hasRef);
}

function isFormNode(node: VirtualNode): boolean {
  return node.role === "form" || node.role === "search" || node.tag === "form";
}

function formFor(st: State, ctx: Ctx): number {
  if (ctx.form !== undefined) return ctx.form;
  const key = ctx.landmark ?? -1;
  let index = st.looseForms.get(key);
  if (index === undefined) {
    index = st.model.forms.push({ isForm: false, ...(ctx.landmark !== undefined ? { landmark: ctx.landmark } : {}), members: [] }) - 1;
    st.looseForms.set(key, index);
  }
  return index;
}

function addAffordance(node: VirtualNode, ctx: Ctx, st: State): void {
  const a: Affordance = { ref: node.ref!, role: node.role, name: node.name ?? "", aboveFold: (node.vp ?? 0) === 0 };
  if (node.type) a.type = node.type;
  if (node.states) a.states = node.states;
  if (node.href) a.href = node.href;
  if (ctx.landmark !== undefined) a.landmark = ctx.landmark;
  if (ctx.item) a.item = ctx.item;
  const heading = headingFor(st, ctx);
  if (heading) a.heading = heading;
  const itemLabel = ctx.item ? st.model.collections[ctx.item.collection]?.items[ctx.item.index]?.label : undefined;
  const near = itemLabel && itemLabel !== a.name ? itemLabel : st.lastText;
  if (near) a.near = near;
  const index = st.model.affordances.push(a) - 1;
  const isField = FIELD_ROLES.has(node.role);
  const isButton = node.role === "button";
  // Buttons belong to the form they are in; fields belong to a form even when the page has none,
  // unless they repeat in every item of a collection (a "Compare" box per product is the collection's).
  if ((isField && (ctx.form !== undefined || !ctx.item)) || (isButton && ctx.form !== undefined)) {
    const form = formFor(st, ctx);
    a.form = form;
    st.model.forms[form]!.members.push(index);
  }
}

function collectionAt(node: VirtualNode, ctx: Ctx, st: State): number | undefined {
  const kids = node.children ?? [];
  const byRole = new Map<string, VirtualNode[]>();
  for (const k of kids) if (ITEM_ROLES.has(k.role)) byRole.set(k.role, [...(byRole.get(k.role) ?? []), k]);
  let best: [string, VirtualNode[]] | undefined;
  for (const entry of byRole) if (!best || entry[1].length > best[1].length) best = entry;
  if (!best || best[1].length < MIN_ITEMS || best[1].filter(hasRef).length < 2) return undefined;
  // Without a name of its own, the heading right before its first item names it (set in visit).
  const label = node.name ?? ctx.container;
  const group: CollectionGroup = {
    itemRole: best[0],
    count: best[1].length,
    items: best[1].map((item) => {
      const l = itemLabel(item);
      return l ? { label: l, members: [] } : { members: [] };
    }),
  };
  if (label) group.label = clip(label, NEAR_CHARS);
  if (ctx.landmark !== undefined) group.landmark = ctx.landmark;
  return st.model.collections.push(group) - 1;
}

function visit(node: VirtualNode, ctx: Ctx, st: State): void {
  let inner = ctx;
  if (isFormNode(node)) {
    // A form (or search) landmark is where its fields are; the form itself is in the one around it.
    const form: FormGroup = { isForm: true, members: [] };
    if (node.role === "search") form.search = true;
    if (node.name) form.label = clip(node.name, NEAR_CHARS);
    if (ctx.landmark !== undefined) form.landmark = ctx.landmark;
    inner = { ...inner, form: st.model.forms.push(form) - 1 };
  }
  if (LANDMARK_ROLES.has(node.role)) {
    const landmark: Landmark = node.name ? { role: node.role, label: clip(node.name, NEAR_CHARS) } : { role: node.role };
    inner = { ...inner, landmark: st.model.landmarks.push(landmark) - 1 };
  }
  if (node.name && (node.role === "list" || node.role === "table" || node.role === "grid" || node.role === "region")) {
    inner = { ...inner, container: node.name };
  }
  if (node.role === "heading" && node.name) st.heading = { text: clip(node.name, NEAR_CHARS), landmark: inner.landmark };
  if (node.role === "text" && node.text) st.lastText = clip(node.text, NEAR_CHARS);
  if (node.ref) {
    addAffordance(node, inner, st);
    const item = inner.item;
    if (item) st.model.collections[item.collection]!.items[item.index]!.members.push(st.model.affordances.length - 1);
  }
  const kids = node.children;
  if (!kids) return;
  const collection = collectionAt(node, inner, st);
  const itemRole = collection === undefined ? undefined : st.model.collections[collection]!.itemRole;
  let itemIndex = 0;
  for (const child of kids) {
    if (collection !== undefined && child.role === itemRole) {
      const group = st.model.collections[collection]!;
      const heading = headingFor(st, inner);
      if (itemIndex === 0 && !group.label && heading) group.label = heading;
      visit(child, { ...inner, item: { collection, index: itemIndex++ } }, st);
    } else visit(child, inner, st);
  }
}

/** The page model of a snapshot tree (the walker's, or the worker's with frames stitched in). */
export function buildPageModel(root: VirtualNode): PageModel {
  const st: State = { model: { landmarks: [], affordances: [], forms: [], collections: [] }, looseForms: new Map() };
  visit(root, {}, st);
  return st.model;
}
