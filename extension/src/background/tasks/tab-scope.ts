import * as z from "@crumbs/schemas/zod-mini";
import { stored } from "../../shared/state/store.ts";

// The tab restriction (docs/extension.md): an agent session may act only on the tab it started on
// and the tabs it opened; and, without an allowlist, write only on the site where it started (plus
// the sites the user let it navigate to). Pure rules over a stored map of session -> scope.

export const scopeSchema = z.object({
  start: z.number().check(z.int()),
  tabs: z.array(z.number().check(z.int())),
  current: z.number().check(z.int()),
  /** Sites it may write to when the options set no allowlist. */
  sites: z._default(z.array(z.string()), []),
  /** The Chrome tab group `Task(<id>)` of the tabs it opened, until its task ends. */
  group: z.optional(z.number().check(z.int())),
  at: z.string(),
});
export type TabScope = z.infer<typeof scopeSchema>;

const MAX_SESSIONS = 50;
export const scopes = stored("crumbs.scopes", z.record(z.string(), scopeSchema), () => ({}));

export function newScope(tabId: number, sites: string[] = [], now = new Date()): TabScope {
  return { start: tabId, tabs: [tabId], current: tabId, sites, at: now.toISOString() };
}

/** The user let the agent go to another site (approved navigation): it may act there too. */
export function withSite(scope: TabScope, site: string | undefined): TabScope {
  return site && !scope.sites.includes(site) ? { ...scope, sites: [...scope.sites, site] } : scope;
}

export function allows(scope: TabScope, tabId: number): boolean {
  return scope.tabs.includes(tabId);
}

export function withOpened(scope: TabScope, tabId: number): TabScope {
  return { ...scope, tabs: scope.tabs.includes(tabId) ? scope.tabs : [...scope.tabs, tabId], current: tabId };
}

export function withCurrent(scope: TabScope, tabId: number): TabScope {
  return { ...scope, current: tabId };
}

/** A closed tab leaves the scope; the agent falls back to the most recent tab it still has. */
export function withClosed(scope: TabScope, tabId: number): TabScope {
  const tabs = scope.tabs.filter((t) => t !== tabId);
  const current = scope.current === tabId ? (tabs.at(-1) ?? scope.start) : scope.current;
  return { ...scope, tabs, current };
}

/** Keeps the most recently used sessions. */
export function pruneScopes(all: Record<string, TabScope>): Record<string, TabScope> {
  const entries = Object.entries(all);
  if (entries.length <= MAX_SESSIONS) return all;
  return Object.fromEntries(entries.sort((a, b) => b[1].at.localeCompare(a[1].at)).slice(0, MAX_SESSIONS));
}

export async function getScope(session: string): Promise<TabScope | undefined> {
  return (await scopes.get())[session];
}

export async function setScope(session: string, scope: TabScope): Promise<void> {
  await scopes.update((all) => pruneScopes({ ...all, [session]: { ...scope, at: new Date().toISOString() } }));
}
