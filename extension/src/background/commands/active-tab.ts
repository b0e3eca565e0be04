import { ActionError } from "../../shared/action-error.ts";

export { isRestrictedUrl } from "../../shared/restricted-page.ts";

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
