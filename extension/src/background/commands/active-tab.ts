import { ActionError } from "../../shared/action-error.ts";

/** The tab a command is for: the one it names, else the active tab of the focused window. */
export async function targetTab(tabId?: number): Promise<chrome.tabs.Tab> {
  if (tabId !== undefined) {
    try {
      return await chrome.tabs.get(tabId);
    } catch {
      throw new ActionError("not_found", `no tab with id ${tabId}`);
    }
  }
  const [focused] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (focused?.id !== undefined) return focused;
  const [any] = await chrome.tabs.query({ active: true });
  if (any?.id !== undefined) return any;
  throw new ActionError("not_found", "no active tab");
}

const RESTRICTED = /^(chrome|chrome-extension|edge|about|devtools|view-source|chrome-search):/;

/** Pages no extension may script (chrome://, the web store, other extensions). */
export function isRestrictedUrl(url: string | undefined): boolean {
  if (!url) return false;
  if (url === "about:blank") return false;
  return RESTRICTED.test(url) || url.startsWith("https://chrome.google.com/webstore") || url.startsWith("https://chromewebstore.google.com");
}
