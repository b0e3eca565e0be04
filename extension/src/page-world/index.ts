import { OWN_CLICK_PROBE } from "../shared/own-click.ts";

// Runs in the page's own JS world (manifest `"world": "MAIN"`, at document_start) and only answers the
// content script's probe (shared/own-click.ts): it reads, never changes, what the page set on an element.
// Nothing is patched; the page can see the probe event only after this listener has stopped it.

const CLICK_PROPS = ["onClick", "onMouseDown", "onPointerDown", "onMouseUp", "onPointerUp"];
const VUE_INVOKERS = ["onClick", "onMousedown", "onPointerdown", "onMouseup", "onPointerup"];

function hasClickHandler(el: Element): boolean {
  const html = el as HTMLElement;
  if (typeof html.onclick === "function" || typeof html.onmousedown === "function" || typeof html.onpointerdown === "function") return true;
  const own = el as unknown as Record<string, unknown>;
  for (const key of Object.keys(own)) {
    const value = own[key] as Record<string, unknown> | null | undefined;
    if (!value || typeof value !== "object") continue;
    // React keeps the element's props on it; Vue 3 its event invokers; Preact its listeners (`l`).
    if (key.startsWith("__reactProps$") && CLICK_PROPS.some((p) => typeof value[p] === "function")) return true;
    if (key === "_vei" && VUE_INVOKERS.some((p) => value[p])) return true;
    if (key === "l" && Object.keys(value).some((k) => /^(click|mousedown|pointerdown)/.test(k))) return true;
  }
  return false;
}

window.addEventListener(
  OWN_CLICK_PROBE,
  (e) => {
    e.stopImmediatePropagation();
    if (e.target instanceof Element && hasClickHandler(e.target)) e.preventDefault();
  },
  true,
);
