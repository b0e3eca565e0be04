import { urlMatches } from "../../shared/url-match.ts";

// Waiting on tabs from the worker: loads survive navigations that replace the page's content script.

export class TabWaitError extends Error {
  constructor(
    readonly code: "timeout" | "not_found",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Resolves when the tab finishes a load that starts after this call (register before navigating), or, with
 * `acceptCurrent`, when the tab is already complete (a fresh tab whose first events may have passed).
 */
export function waitForTabLoad(tabId: number, timeoutMs: number, acceptCurrent = false): Promise<chrome.tabs.Tab> {
  return new Promise((resolve, reject) => {
    let sawLoading = false;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      chrome.tabs.onRemoved.removeListener(onRemoved);
      fn();
    };
    const onUpdated = (id: number, info: { status?: string }, tab: chrome.tabs.Tab) => {
      if (id !== tabId) return;
      if (info.status === "loading") sawLoading = true;
      if (info.status === "complete" && (sawLoading || acceptCurrent)) finish(() => resolve(tab));
    };
    const onRemoved = (id: number) => {
      if (id === tabId) finish(() => reject(new TabWaitError("not_found", `tab ${tabId} was closed while loading`)));
    };
    const timer = setTimeout(
      () => finish(() => reject(new TabWaitError("timeout", `tab ${tabId} did not finish loading within ${timeoutMs} ms`))),
      timeoutMs,
    );
    // Events can be missed between tab creation and listener registration; a slow poll closes that gap.
    const poll = setInterval(async () => {
      const tab = await chrome.tabs.get(tabId).catch(() => undefined);
      if (tab && tab.status === "complete" && !tab.pendingUrl && (sawLoading || acceptCurrent)) finish(() => resolve(tab));
    }, 250);
    chrome.tabs.onUpdated.addListener(onUpdated);
    chrome.tabs.onRemoved.addListener(onRemoved);
  });
}

/** Resolves when the tab's committed URL matches `pattern` and its load is complete. */
export async function waitForTabUrl(tabId: number, pattern: string, timeoutMs: number): Promise<chrome.tabs.Tab> {
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab) throw new TabWaitError("not_found", `tab ${tabId} is gone`);
    if (tab.url && urlMatches(tab.url, pattern) && tab.status === "complete") return tab;
    if (Date.now() >= deadline) {
      throw new TabWaitError("timeout", `waited ${timeoutMs} ms for the URL to match "${pattern}" (it is ${tab.url ?? "unknown"})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
