import { ActionError } from "../../shared/action-error.ts";
import { deepElements } from "./deep-dom.ts";
import { isVisible } from "./element-state.ts";

/**
 * Telling frames apart without chrome.runtime.getFrameId (not available to content scripts in current
 * Chromium): the parent posts a token into each iframe it shows; the frame's own content script keeps the
 * last token it got from its parent and reports it with its snapshot, so the worker can put each frame's
 * subtree under the right iframe element.
 */
const PROBE_KEY = "__crumbsFrameProbe";
let lastProbe: string | undefined;
let counter = 0;

export function listenForProbes(): void {
  window.addEventListener("message", (e: MessageEvent) => {
    if (e.source !== window.parent || window.parent === window) return;
    const data = e.data as Record<string, unknown> | null;
    if (data && typeof data === "object" && typeof data[PROBE_KEY] === "string") lastProbe = data[PROBE_KEY];
  });
}

export function currentProbe(): string | undefined {
  return lastProbe;
}

export function probeFrame(iframe: Element, docId: string): string {
  const token = `${docId}:${++counter}`;
  try {
    (iframe as HTMLIFrameElement).contentWindow?.postMessage({ [PROBE_KEY]: token }, "*");
  } catch {
    // A frame without a window yet: the worker falls back to matching by URL.
  }
  return token;
}

/**
 * The iframe of this document a selector's `frame` step names: by title, `name` or aria-label, whole
 * name first, then a substring, any case. It is posted a fresh probe token, which its own content script
 * reports back, so the worker can tell which frame id it is. None or several visible: an error that says so.
 */
export function findFrame(step: string, docId: string): { token: string; src?: string } {
  const wanted = step.replace(/\s+/g, " ").trim().toLowerCase();
  const frames = Array.from(deepElements(document, { frames: false })).filter(
    (el) => (el.localName === "iframe" || el.localName === "frame") && isVisible(el),
  );
  const labels = frames.map((f) =>
    [f.getAttribute("title"), f.getAttribute("name"), f.getAttribute("aria-label")].map((v) => (v ?? "").replace(/\s+/g, " ").trim().toLowerCase()),
  );
  let hits = frames.filter((_, i) => labels[i]!.includes(wanted));
  if (hits.length === 0) hits = frames.filter((_, i) => labels[i]!.some((l) => l && l.includes(wanted)));
  if (hits.length === 0) {
    const known = labels.map((l) => l.find(Boolean)).filter(Boolean);
    throw new ActionError("not_found", `no iframe titled or named "${step}" here${known.length ? ` (iframes: ${known.map((k) => `"${k}"`).join(", ")})` : ""}`);
  }
  if (hits.length > 1) throw new ActionError("invalid_params", `${hits.length} iframes match "${step}"; use its whole title or name`);
  const iframe = hits[0] as HTMLIFrameElement;
  return { token: probeFrame(iframe, docId), ...(iframe.src ? { src: iframe.src } : {}) };
}
