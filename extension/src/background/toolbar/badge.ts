import { badgeFor } from "../../shared/badge-state.ts";
import { INBOX_KEY, inbox } from "../../shared/state/inbox.ts";
import { STATUS_KEY, busStatus } from "../../shared/state/status.ts";

// The toolbar badge follows storage: whatever writes the status or the inbox (the NATS link, the
// tracker, the action runner, a restarted worker) changes it, with no call to remember.

let painted = "";

export async function refreshBadge(): Promise<void> {
  const [status, entries] = await Promise.all([busStatus.get(), inbox.get()]);
  const badge = badgeFor(status, entries.filter((e) => e.state === "awaiting_confirmation").length);
  const key = JSON.stringify(badge);
  if (key === painted) return;
  painted = key;
  await Promise.all([
    chrome.action.setBadgeText({ text: badge.text }),
    chrome.action.setBadgeBackgroundColor({ color: badge.color }),
    chrome.action.setTitle({ title: badge.title }),
  ]).catch(() => {
    painted = "";
  });
}

export function startBadge(): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && (STATUS_KEY in changes || INBOX_KEY in changes)) void refreshBadge();
  });
  void refreshBadge();
}
