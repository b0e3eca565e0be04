import { OWN_CLICK_PROBE } from "../../shared/own-click.ts";

/**
 * Whether the page gave this element a click handler of its own (asked of the page's JS world, which
 * alone can see it): inside a clickable row, a cell that does something else gets its own ref.
 */
export function handlesOwnClick(el: Element): boolean {
  return !el.dispatchEvent(new CustomEvent(OWN_CLICK_PROBE, { cancelable: true, bubbles: false }));
}
