import { ActionError } from "../../shared/action-error.ts";

/**
 * Refs of this document. A counter that only grows and a WeakMap from element to ref: the same element
 * keeps its ref across snapshots, and a ref is never reused for another element, so an action aimed at
 * an element that has gone fails as stale instead of landing on whatever took its place.
 * Frame prefixes (`f3e7`) are added and stripped by the worker; a content script only sees `e<n>`.
 */
const refOf = new WeakMap<Element, string>();
const elementOf = new Map<string, WeakRef<Element>>();
let counter = 0;

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

function stale(ref: string): ActionError {
  return new ActionError(
    "stale_ref",
    `ref ${ref} is not on the page any more (the page changed since the snapshot); take a new snapshot`,
  );
}

export function resolveRef(ref: string): Element {
  if (!LOCAL_REF.test(ref)) {
    throw new ActionError("invalid_params", `ref ${JSON.stringify(ref)} is not a snapshot ref like e12 or f1e3`);
  }
  const el = elementOf.get(ref)?.deref();
  if (!el || !el.isConnected) throw stale(ref);
  return el;
}

/** Drops entries whose element was garbage collected, so a long-lived page does not grow the map. */
export function pruneRefs(): void {
  for (const [ref, weak] of elementOf) if (!weak.deref()) elementOf.delete(ref);
}
