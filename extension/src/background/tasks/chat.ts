import { logActivity } from "../../shared/state/activity.ts";
import { noteTask } from "../../shared/state/control.ts";
import type { Connection } from "../connection.ts";
import { agentStartTab } from "./start-tab.ts";
import { siteOf } from "../../risk/site.ts";
import { getScope, newScope, setScope, withOpened, withSite } from "./tab-scope.ts";

// A chat message from the side panel: chat.message.v1 with the session and extension tags (so the
// runner links the conversation to this browser). The tab the user is on becomes the agent's tab
// for the session (the tab the task started on: "Tab restriction" in docs/extension.md).

export async function sendChat(conn: Connection, extensionId: string, content: string, sessionId: string): Promise<string> {
  const tabId = await agentStartTab();
  if (tabId !== undefined) {
    // Without an allowlist the agent writes only on the site of the tab this message was sent from.
    const site = siteOf((await chrome.tabs.get(tabId).catch(() => undefined))?.url);
    const scope = await getScope(sessionId);
    await setScope(sessionId, scope ? withSite(withOpened(scope, tabId), site) : newScope(tabId, site ? [site] : []));
  }
  const b = await conn.api.create({
    schema_name: "chat.message.v1",
    title: content.replace(/\s+/g, " ").slice(0, 80),
    tags: ["user:message", `session:${sessionId}`, `extension:${extensionId}`],
    context: { role: "user", content, session_id: sessionId },
  });
  void logActivity("chat", `you: ${content.slice(0, 120)}`);
  // Stoppable from now on, also while the agent thinks before its first action.
  await noteTask(sessionId, { state: "running", root: undefined, agent: undefined, step: undefined, max_steps: undefined, last_action: "your message; waiting for the agent" });
  return b.id;
}
