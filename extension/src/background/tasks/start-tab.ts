import { isRestrictedUrl, targetTab } from "../commands/active-tab.ts";
import { busStatus } from "../../shared/state/status.ts";

// The tab an agent session starts on ("Tab restriction" in docs/extension.md): the page the user is
// looking at. When the active tab is one the extension cannot act on (the side panel opened as a
// tab, chrome:// pages), the page of the living context is meant: that is the page the agent was
// shown.

export async function agentStartTab(): Promise<number | undefined> {
  const active = await targetTab().catch(() => undefined);
  if (active?.id !== undefined && !isRestrictedUrl(active.url)) return active.id;
  const tabId = (await busStatus.get()).context?.tabId;
  if (tabId !== undefined && (await chrome.tabs.get(tabId).catch(() => undefined))) return tabId;
  return active?.id;
}
