// The "significant DOM change" trigger of the page context (docs/extension.md). A MutationObserver
// in the page counts element additions/removals and text edits; when a quiet moment follows enough
// change, it tells the worker. Installed by chrome.scripting into the extension's isolated world,
// once per document.

export const DOM_CHANGED = "crumbs:dom-changed";

/** Runs in the page: must not use anything from this module's scope. */
export function installDomWatch(kind: string, threshold: number, quietMs: number) {
  const g = globalThis as unknown as { __crumbsDomWatch?: boolean };
  if (g.__crumbsDomWatch || !document.documentElement) return;
  g.__crumbsDomWatch = true;
  let score = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ours = (n: Node) => n instanceof Element && n.localName === "crumbs-mask";
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (ours(r.target)) continue;
      if (r.type === "childList") {
        for (const n of [...r.addedNodes, ...r.removedNodes]) {
          if (ours(n)) continue;
          if (n.nodeType === Node.ELEMENT_NODE) score += 1 + Math.min(20, (n as Element).getElementsByTagName("*").length);
          else if (n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim()) score += 1;
        }
      } else if (r.type === "characterData") {
        score += 0.5;
      } else if (r.type === "attributes") {
        score += 0.25;
      }
    }
    if (score < threshold) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      score = 0;
      chrome.runtime.sendMessage({ kind }).catch(() => {});
    }, quietMs);
  });
  observer.observe(document.documentElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["hidden", "aria-hidden", "aria-expanded", "open", "disabled"],
  });
}
