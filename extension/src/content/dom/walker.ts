import { NAME_FROM_CONTENT } from "../../snapshot/roles.ts";
import type { VirtualNode } from "../../snapshot/virtual-node.ts";
import { accessibleName, normalizeText } from "./accessible-name.ts";
import { hrefOf, isActionable, statesOf, valueOf } from "./element-info.ts";
import { isSectioning, roleOf } from "./role-utils.ts";
import { refFor, rememberWalk, type WalkedRef } from "./refs.ts";
import { ancestorsPlace, isItem, scopeOf } from "./place.ts";
import { labelBox } from "./label-proxy.ts";
import { type Reveal, revealOf, revealRules } from "./reveal.ts";
import { contentText, hasActionOrHeading, isCard, MAX_OPTIONS, options } from "./walk-nodes.ts";
import {
  type Area,
  childArea,
  clippedAway,
  hasSize,
  isCovered,
  MIN_OPACITY,
  NO_CLIP,
  overflowOf,
  overlaps,
  toRect,
  viewDistance,
} from "./visibility.ts";

export interface WalkOptions {
  includeBoxes?: boolean;
  /** Marks an iframe so its own content script can be matched to it; returns the token. */
  probeFrame?: (iframe: Element) => string;
}

interface Ctx {
  /** Where content can show (overflow: hidden cuts it) and what is seen now (the viewport within scrolling panes). */
  area: Area;
  opacityZero: boolean;
  /** Inside something transparent until hovered or focused. */
  reveal?: Reveal;
  inSectioning: boolean;
  parentPointer: boolean;
  /** Inside a label of a control the snapshot shows: clicking here is clicking that control. */
  inLabel: boolean;
  vp: number;
  /** The innermost landmark or form around, and the collection item: where refs that heal place a ref (place.ts). */
  scope: string;
  item: Element | undefined;
}

interface Walk {
  opts: WalkOptions;
  /** The viewport: what a position: fixed element's content is seen in. */
  viewport: Area;
  /** The page's hover and focus reveal rules, read the first time a transparent element is met. */
  revealRules?: ReturnType<typeof revealRules>;
  /** The refs this walk gave, for their anchors (refs that heal, refs.ts). */
  refs: WalkedRef[];
}

const SKIP_TAGS = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base", "br", "wbr"]);
const MAX_NAME = 200;

function walkChildren(parent: Node, ctx: Ctx, textShown: boolean, w: Walk, out: VirtualNode[]): void {
  for (let child = parent.firstChild; child; child = child.nextSibling) walkNode(child, ctx, textShown, w, out);
}

function walkNode(node: Node, ctx: Ctx, textShown: boolean, w: Walk, out: VirtualNode[]): void {
  if (node.nodeType === Node.TEXT_NODE) {
    if (!textShown) return;
    const text = normalizeText(node.nodeValue);
    if (text) out.push({ role: "text", text, vp: ctx.vp });
  } else if (node.nodeType === Node.ELEMENT_NODE) {
    walkElement(node as Element, ctx, w, out);
  }
}

function walkSlot(slot: HTMLSlotElement, ctx: Ctx, textShown: boolean, w: Walk, out: VirtualNode[]): void {
  const assigned = slot.assignedNodes({ flatten: true });
  if (assigned.length === 0) walkChildren(slot, ctx, textShown, w, out);
  else for (const n of assigned) walkNode(n, ctx, textShown, w, out);
}

function walkElement(el: Element, ctx: Ctx, w: Walk, out: VirtualNode[]): void {
  const tag = el.localName;
  if (SKIP_TAGS.has(tag)) return;
  // Removed from the accessibility tree with everything inside: what a screen reader would not read either.
  if (el.getAttribute("aria-hidden") === "true" || (el as HTMLElement).inert) return;
  const style = getComputedStyle(el);
  if (style.display === "none") return;
  const visibleStyle = style.visibility === "visible";
  const clipped = clippedAway(style);
  const contents = style.display === "contents";
  const rect = contents ? null : el.getBoundingClientRect();
  const sized = rect !== null && hasSize(rect);
  // An input hidden under the label that draws it (a custom switch) is where its label is seen.
  const proxy = tag === "input" && visibleStyle && (clipped || !sized) ? labelBox(el) : undefined;
  if (clipped && !proxy) return;
  const overflow = rect ? overflowOf(el, style) : undefined;
  if (rect && !sized && !proxy) {
    // No box: its content can still overflow into view, unless clipped or never laid out (closed details).
    if (overflow?.clipX || overflow?.clipY || !el.checkVisibility({ contentVisibilityAuto: true })) return;
  }
  const fixed = style.position === "fixed";
  if (rect && sized && !fixed && !overlaps(toRect(rect), ctx.area.clip)) return;
  // Transparent until hovered or focused (a row's action buttons): listed, marked, acted on after a hover.
  let reveal = ctx.reveal;
  let opacityZero = ctx.opacityZero;
  if (!opacityZero && Number(style.opacity) <= MIN_OPACITY) {
    const kind = revealOf(el, (w.revealRules ??= revealRules(el.ownerDocument)));
    if (kind) reveal ??= kind;
    else opacityZero = true;
  }
  // A styled checkbox is often an invisible input under its visible label: the label makes it usable.
  const labelledInvisible =
    opacityZero && tag === "input" && ((el as HTMLInputElement).labels?.length ?? 0) > 0 && visibleStyle;
  const shown = (sized && !clipped && visibleStyle && (!opacityZero || labelledInvisible)) || proxy !== undefined;
  const textShown = visibleStyle && !opacityZero;
  const area = fixed ? w.viewport : ctx.area;
  const box = proxy ?? (sized ? rect : undefined);
  const vp = box ? viewDistance(toRect(box), area.view) : ctx.vp;
  const html = el as HTMLElement;
  const editableRoot = html.isContentEditable && !html.parentElement?.isContentEditable;
  const baseRole = roleOf(el, tag, ctx.inSectioning);
  const role = editableRoot && baseRole === "generic" ? "textbox" : baseRole;

  const labelsControl = tag === "label" && !!(el as HTMLLabelElement).control?.checkVisibility();
  // A pane that scrolls is a place to act on (`scroll` with its ref), and the budget says what in it was cut.
  const scroller = overflow !== undefined && sized && (overflow.scrollX || overflow.scrollY) && el !== el.ownerDocument.body;
  const childCtx: Ctx = {
    area: rect && overflow ? childArea(area, toRect(rect), overflow) : area,
    opacityZero,
    reveal,
    inSectioning: ctx.inSectioning || isSectioning(tag),
    parentPointer: style.cursor === "pointer",
    inLabel: ctx.inLabel || labelsControl,
    vp,
    scope: scopeOf(el, baseRole) ?? ctx.scope,
    item: isItem(baseRole) ? el : ctx.item,
  };

  let kids: VirtualNode[] = [];
  let summary: VirtualNode["summary"];
  if (tag === "iframe" || tag === "frame") {
    if (!shown) return;
    const node: VirtualNode = { role: "iframe", tag, vp };
    const title = normalizeText(el.getAttribute("title"));
    if (title) node.name = title;
    const token = w.opts.probeFrame?.(el);
    if (token) node.frame = { token, src: (el as HTMLIFrameElement).src };
    else node.children = [{ role: "text", text: "(frame content not available)" }];
    out.push(node);
    return;
  } else if (tag === "select") {
    kids = options(el as HTMLSelectElement);
    const total = (el as HTMLSelectElement).options.length;
    // Said on the select's line, and it makes the snapshot `truncated`: something was left out.
    if (total > MAX_OPTIONS) summary = { total, shown: MAX_OPTIONS };
  } else if (tag === "svg" || tag === "img" || tag === "textarea" || tag === "input" || editableRoot) {
    // Leaves for the snapshot: their content is summed up by name and value.
  } else if (tag === "details" && !(el as HTMLDetailsElement).open) {
    const summary = el.querySelector(":scope > summary");
    if (summary) walkElement(summary, childCtx, w, kids);
  } else if (el.shadowRoot) {
    walkChildren(el.shadowRoot, childCtx, textShown, w, kids);
  } else if (tag === "slot") {
    walkSlot(el as HTMLSlotElement, childCtx, textShown, w, kids);
  } else {
    walkChildren(el, childCtx, textShown, w, kids);
  }

  if (labelsControl) kids = kids.filter((k) => k.role !== "text");

  if (!shown) {
    // An invisible box (visibility:hidden, zero size, transparent) can hold visible descendants.
    for (const k of kids) out.push(k);
    return;
  }

  // A label's slider or box has the pointer cursor, but it is the control's: the control has the ref.
  const labelPart = (ctx.inLabel || labelsControl) && (role === "generic" || role === "none" || role === "presentation");
  const actionable = !labelPart && isActionable(el, tag, role, style, ctx.parentPointer);
  // Content: only the visible text this walk found in the children.
  let name = accessibleName(el, role, { actionable, content: () => contentText(kids).join(" ") });
  if (name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME - 1)}…`;

  const node: VirtualNode = { role: actionable && (role === "none" || role === "presentation") ? "generic" : role, tag, vp };
  if (name) node.name = name;
  if (actionable || scroller) {
    const covered = actionable && vp === 0 && box !== undefined && isCovered(el, box, area.view);
    if (reveal) node.states = { shownOn: reveal };
    if (covered) node.states = { ...node.states, covered: true };
    else {
      node.ref = refFor(el);
      w.refs.push({ ref: node.ref, role: node.role, name, scope: ctx.scope, item: ctx.item });
    }
  }
  if (scroller) node.scrollable = true;
  if (summary) node.summary = summary;
  const type = typeOf(el, tag);
  if (type) node.type = type;
  const states = statesOf(el, tag, node.role);
  if (states) node.states = { ...node.states, ...states };
  const value = node.role === "textbox" || node.role === "searchbox" || node.role === "combobox" || node.role === "slider" || node.role === "spinbutton" || editableRoot ? valueOf(el, tag) : undefined;
  if (value !== undefined) node.value = value;
  if (node.role === "link") {
    const href = hrefOf(el);
    if (href) node.href = href;
  }
  if (w.opts.includeBoxes && box) {
    node.box = { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
  }
  // Name from content already says what the children say, unless they hold something to act on.
  if (name && NAME_FROM_CONTENT.has(node.role) && !hasActionOrHeading(kids)) kids = [];
  if ((tag === "img" || tag === "svg") && !name && !node.ref) return;

  // An unnamed form has no role, but the pcd and query group its fields by it: it stays in the tree
  // (the renderer still prints no line for it).
  const transparent =
    (node.role === "generic" || node.role === "none" || node.role === "presentation") &&
    tag !== "form" &&
    !node.name &&
    !node.ref &&
    !node.states &&
    node.value === undefined &&
    !node.box;
  if (transparent) {
    // A card (a box with its own heading and something to act on) keeps its lines together, so which
    // "Delete" is whose is not left to reading order.
    if (isCard(kids)) out.push({ role: "group", tag, vp, children: kids });
    else for (const k of kids) out.push(k);
    return;
  }
  if (kids.length > 0) node.children = kids;
  out.push(node);
}

/** What the pcd and query read about a control besides its role: an input's or button's type. */
function typeOf(el: Element, tag: string): string | undefined {
  if (tag === "input") return (el as HTMLInputElement).type;
  if (tag === "button") return (el as HTMLButtonElement).type;
  if (tag === "textarea" || tag === "select") return tag;
  return undefined;
}

/** Walks the visible DOM from `root` (the body by default) into a plain VirtualNode tree. */
export function walkDocument(doc: Document, root: Element | null, opts: WalkOptions = {}): VirtualNode {
  const refs: Walk["refs"] = [];
  const tree = walkTree(doc, root, opts, refs);
  rememberWalk(refs);
  return tree;
}

function walkTree(doc: Document, root: Element | null, opts: WalkOptions, refs: Walk["refs"]): VirtualNode {
  const view = doc.defaultView;
  const vpRect = { left: 0, top: 0, right: view?.innerWidth ?? 0, bottom: view?.innerHeight ?? 0 };
  const w: Walk = { opts, viewport: { clip: NO_CLIP, view: vpRect }, refs };
  const start = root ?? doc.body ?? doc.documentElement;
  // A walk from root_ref starts below the page's top: its ancestors' place, as placeOf reads it.
  const place = root ? ancestorsPlace(root) : { scope: "", item: undefined };
  const ctx: Ctx = { area: w.viewport, opacityZero: false, inSectioning: false, parentPointer: false, inLabel: false, vp: 0, ...place };
  if (!start) return { role: "generic", tag: "body", vp: 0 };
  if (!root) {
    const children: VirtualNode[] = [];
    walkChildren(start.shadowRoot ?? start, ctx, true, w, children);
    return { role: "generic", tag: start.localName, vp: 0, children };
  }
  const out: VirtualNode[] = [];
  walkElement(start, ctx, w, out);
  return out.length === 1 && out[0] ? out[0] : { role: "generic", tag: start.localName, vp: 0, children: out };
}
