import { restrictedPageHelp } from "../shared/restricted-page.ts";

// Above the chat input: what the user can do when the tab beside the panel is one crumbs cannot
// read (a blank tab, a chrome:// page, the Web Store), before they ask and get a refusal.

async function tabBeside(): Promise<chrome.tabs.Tab | undefined> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true }).catch(() => []);
  return tab;
}

export async function renderThisTab(root: HTMLElement): Promise<void> {
  const tab = await tabBeside();
  // The panel opened as a tab of its own is no page the user meant.
  const own = tab?.url?.startsWith(`chrome-extension://${chrome.runtime.id}/`);
  const help = tab && !own ? restrictedPageHelp(tab.url ?? tab.pendingUrl) : undefined;
  root.hidden = !help;
  root.textContent = help ?? "";
}

export function watchThisTab(root: HTMLElement): void {
  const refresh = () => void renderThisTab(root);
  chrome.tabs.onActivated.addListener(refresh);
  chrome.tabs.onUpdated.addListener((_id, change, tab) => tab.active && (change.url !== undefined || change.status !== undefined) && refresh());
  chrome.windows.onFocusChanged.addListener(refresh);
  refresh();
}
