// Shows the user which element a waiting high-risk action would act on: an outline drawn over it
// in a closed shadow root, hidden from the snapshot (aria-hidden) and from hit tests. It stays until
// the next action reaches this frame or the worker clears it.

let current: { host: HTMLElement; stop: () => void } | undefined;

export function clearHighlight(): void {
  current?.stop();
  current?.host.remove();
  current = undefined;
}

export function highlight(el: Element): void {
  clearHighlight();
  const host = document.createElement("crumbs-highlight");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText = "all: initial; position: fixed; inset: 0; z-index: 2147483646; pointer-events: none;";
  const root = host.attachShadow({ mode: "closed" });
  const box = document.createElement("div");
  root.append(box);
  const place = () => {
    const r = el.getBoundingClientRect();
    box.style.cssText = `position: fixed; left: ${r.left - 4}px; top: ${r.top - 4}px; width: ${r.width + 8}px; height: ${r.height + 8}px; border: 3px solid #d1342b; border-radius: 6px; box-shadow: 0 0 0 9999px rgba(0, 0, 0, 0.18); pointer-events: none;`;
  };
  el.scrollIntoView({ block: "center", inline: "nearest" });
  place();
  window.addEventListener("scroll", place, true);
  window.addEventListener("resize", place);
  const stop = () => {
    window.removeEventListener("scroll", place, true);
    window.removeEventListener("resize", place);
  };
  document.documentElement.append(host);
  current = { host, stop };
}
