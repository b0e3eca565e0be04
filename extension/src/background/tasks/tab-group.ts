import { getScope, scopes, setScope } from "./tab-scope.ts";

// The tabs an agent opens stand together in a Chrome tab group named for the task, `Task(<id>)`
// (the first 8 characters of the breadcrumb that started it), so the user's own tabs are not mixed
// with them; the group is taken apart when the task ends, the tabs themselves are left open. The
// tab the task started on is the user's and never joins it.

export const taskGroupTitle = (taskId: string) => `Task(${taskId})`;

export async function addToTaskGroup(session: string, tabId: number, taskId: string): Promise<void> {
  const scope = await getScope(session);
  if (!scope) return;
  const existing = scope.group === undefined ? undefined : await chrome.tabGroups.get(scope.group).catch(() => undefined);
  try {
    const groupId = await chrome.tabs.group(existing ? { groupId: existing.id, tabIds: [tabId] } : { tabIds: [tabId] });
    if (!existing) await chrome.tabGroups.update(groupId, { title: taskGroupTitle(taskId), color: "orange" });
    await setScope(session, { ...((await getScope(session)) ?? scope), group: groupId });
  } catch {
    // A tab closed meanwhile, or a window that takes no groups (a popup): the tab stays ungrouped.
  }
}

/** The task of this session ended: its tabs leave their group (which Chrome then removes). */
export async function ungroupTask(session: string): Promise<void> {
  const scope = await getScope(session);
  if (scope?.group === undefined) return;
  const tabs = await chrome.tabs.query({ groupId: scope.group }).catch(() => []);
  const [first, ...rest] = tabs.map((t) => t.id).filter((id): id is number => id !== undefined);
  if (first !== undefined) await chrome.tabs.ungroup([first, ...rest]).catch(() => {});
  await scopes.update((all) => {
    const s = all[session];
    if (!s) return all;
    const { group: _gone, ...rest } = s;
    return { ...all, [session]: rest };
  });
}
