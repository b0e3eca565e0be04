import type { RefCandidate } from "@crumbs/schemas/action-result";
import { ActionError } from "../../shared/action-error.ts";
import { chooseRebind, numberTwins, type Anchor } from "../../perception/heal.ts";
import { deepElements } from "./deep-dom.ts";
import { isVisible } from "./element-state.ts";
import { placeOf, textOfItem } from "./place.ts";
import { isSecretField } from "./redaction.ts";
import { nameOf, roleOf } from "./role-utils.ts";

/**
 * Refs of this document. A counter that only grows and a WeakMap from element to ref: the same element
 * keeps its ref across snapshots, and a ref is never reused for another element. An element that has
 * gone is healed only when certain (perception/heal.ts): its anchor (role, name, place) names exactly
 * one element the page has now, which then gets its own new ref and the action says `rebound`;
 * otherwise `stale_ref` with the candidates. Never a guess at a similar element.
 * Frame prefixes (`f3e7`) are added and stripped by the worker; a content script only sees `e<n>`.
 */
const refOf = new WeakMap<Element, string>();
const elementOf = new Map<string, WeakRef<Element>>();
/** Anchors of the most recent refs, kept after their elements are collected: that is when they are needed. */
const anchors = new Map<string, Anchor>();
const MAX_ANCHORS = 5000;
let counter = 0;

/** Per request: refs healed so far, so the guard and the verb act on the same element. */
let healed = new Map<string, Element>();
let rebound: { from: string; ref: string } | undefined;

export const LOCAL_REF = /^e\d+$/;

export function refFor(el: Element): string {
  let ref = refOf.get(el);
  if (!ref) {
    ref = `e${++counter}`;
    refOf.set(el, ref);
    elementOf.set(ref, new WeakRef(el));
  }
  return ref;
}

export function existingRef(el: Element): string | undefined {
  return refOf.get(el);
}

function remember(ref: string, anchor: Anchor): void {
  anchors.delete(ref);
  anchors.set(ref, anchor);
  if (anchors.size > MAX_ANCHORS) anchors.delete(anchors.keys().next().value!);
}

/** What the walker saw of a ref: its role, name, landmark scope and collection item (place.ts). */
export interface WalkedRef {
  ref: string;
  role: string;
  name: string;
  scope: string;
  item: Element | undefined;
}

/** The walk's refs: their anchors, with item texts read once per item and twins counted. */
export function rememberWalk(seen: WalkedRef[]): void {
  const texts = new Map<Element, string>();
  const itemText = (item: Element | undefined) => {
    if (!item) return "";
    let t = texts.get(item);
    if (t === undefined) texts.set(item, (t = textOfItem(item)));
    return t;
  };
  const numbered = numberTwins(seen.map((s) => ({ ref: s.ref, role: s.role, name: s.name, scope: s.scope, item: itemText(s.item) })));
  for (const { ref, ...anchor } of numbered) remember(ref, anchor);
}

/** A ref for an element outside a walk (details, candidates, a rebound element), with its anchor. */
export function liveRef(el: Element): string {
  const ref = refFor(el);
  if (!anchors.has(ref)) {
    const role = roleOf(el);
    remember(ref, { role, name: nameOf(el, role), ...placeOf(el), index: 0, count: 1 });
  }
  return ref;
}

/** Starts a request: the heals of the last one are forgotten. */
export function beginRequest(): void {
  healed = new Map();
  rebound = undefined;
}

/** The heal this request made, if any: `{from: "e5", ref: "e41"}`. */
export function reboundInRequest(): { from: string; ref: string } | undefined {
  return rebound;
}

export function candidateOf(el: Element): RefCandidate {
  const role = roleOf(el);
  const name = nameOf(el, role);
  const c: RefCandidate = { ref: liveRef(el), role, name: name.length > 200 ? `${name.slice(0, 199)}…` : name };
  if (isSecretField(el)) c.secret = true;
  return c;
}

function stale(ref: string, candidates: Element[]): ActionError {
  const list = candidates.map(candidateOf);
  const more = list.length
    ? `; it could be one of: ${list.map((c) => `${c.ref} ${c.role} "${c.name}"`).join(", ")} (act on one by its ref)`
    : "; take a new snapshot";
  return new ActionError("stale_ref", `ref ${ref} is not on the page any more (the page changed since the snapshot)${more}`, list);
}

function heal(ref: string): Element {
  const anchor = anchors.get(ref);
  if (!anchor) throw stale(ref, []);
  const same: Element[] = [];
  for (const el of deepElements(document, { frames: false })) {
    if (roleOf(el) === anchor.role && nameOf(el, anchor.role) === anchor.name && isVisible(el)) same.push(el);
  }
  const choice = chooseRebind(anchor, same.map((el) => placeOf(el)));
  if (choice.kind === "stale") throw stale(ref, choice.candidates.map((i) => same[i]!));
  const el = same[choice.index]!;
  healed.set(ref, el);
  rebound = { from: ref, ref: liveRef(el) };
  return el;
}

export function resolveRef(ref: string): Element {
  if (!LOCAL_REF.test(ref)) {
    throw new ActionError("invalid_params", `ref ${JSON.stringify(ref)} is not a snapshot ref like e12 or f1e3`);
  }
  const el = elementOf.get(ref)?.deref();
  if (el?.isConnected) return el;
  return healed.get(ref) ?? heal(ref);
}

/** Drops entries whose element was garbage collected, so a long-lived page does not grow the map. */
export function pruneRefs(): void {
  for (const [ref, weak] of elementOf) if (!weak.deref()) elementOf.delete(ref);
}
