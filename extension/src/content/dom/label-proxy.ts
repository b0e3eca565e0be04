import { isVisible } from "./element-state.ts";
import { clippedAway, hasSize, transparent } from "./visibility.ts";

// A custom switch or checkbox hides its input (opacity 0, zero size, or the screen-reader-only clip) and
// draws a slider inside or beside its label. The user sees and clicks the label; the snapshot prints the
// input (its role, its name from the label, its checked state) where its label is seen, and an action
// on it clicks the label, which the browser forwards to the input.

function labelsOf(el: Element): HTMLLabelElement[] {
  const labels = (el as HTMLInputElement).labels;
  return labels ? [...labels] : [];
}

function shows(label: Element): boolean {
  return label.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && hasSize(label.getBoundingClientRect());
}

/** The box of a label the user sees, standing for an input that is not seen itself; undefined if none. */
export function labelBox(input: Element): DOMRect | undefined {
  for (const label of labelsOf(input)) if (shows(label)) return label.getBoundingClientRect();
  return undefined;
}

/**
 * Whether the user sees the input itself, by the walker's rule: a box over 1 px that is not clipped away
 * (`clip: rect(0 0 0 0)`, the screen-reader-only pattern) and not transparent. A 1x1 screen-reader-only
 * input sits wherever its absolute position puts it (the corner of its row, under the row's text), so a
 * click aimed at it lands on whatever is there.
 */
function seen(el: Element): boolean {
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  return isVisible(el) && hasSize(el.getBoundingClientRect()) && !(style && clippedAway(style)) && !transparent(el);
}

/**
 * What a user would click to act on `el`: `el` itself when it is seen, else the label that draws it (the
 * one around it first: that is where the slider is), else `el`.
 */
export function userTarget(el: Element): Element {
  if (el.localName !== "input" || seen(el)) return el;
  const labels = labelsOf(el).filter(shows);
  return labels.find((l) => l.contains(el)) ?? labels[0] ?? el;
}
