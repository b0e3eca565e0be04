/**
 * Which document each frame of a tab had at the last snapshot. Kept in chrome.storage.session because the
 * worker may be stopped between a snapshot and the action that uses its refs.
 */
const key = (tabId: number) => `crumbs.docs.${tabId}`;

export type DocIds = Record<string, string>;

async function load(tabId: number): Promise<DocIds | undefined> {
  return (await chrome.storage.session.get(key(tabId)))[key(tabId)] as DocIds | undefined;
}

/** A snapshot of part of the page (root_ref) updates only the frames it saw. */
export async function mergeDocIds(tabId: number, docs: DocIds): Promise<void> {
  const merged = { ...(await load(tabId)), ...docs };
  await chrome.storage.session.set({ [key(tabId)]: merged });
}

export async function docIdFor(tabId: number, frameId: number): Promise<string | undefined> {
  return (await load(tabId))?.[String(frameId)];
}
