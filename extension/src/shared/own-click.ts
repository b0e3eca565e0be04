/**
 * The content script's question to the page's own JS world: "does this element handle clicks itself?"
 * It dispatches this cancelable event on the element; the page-world script (src/page-world/) cancels
 * it when the element has a handler of its own there (an onclick property, a React, Vue or Preact click
 * prop), which the content script's isolated world cannot see. Dispatch is synchronous across worlds.
 */
export const OWN_CLICK_PROBE = "crumbs:own-click";
