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
