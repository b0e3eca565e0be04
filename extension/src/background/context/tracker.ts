import * as z from "@crumbs/schemas/zod-mini";
import { isRestrictedUrl, targetTab } from "../commands/active-tab.ts";
import { apiIsAway, type Breadcrumb } from "../../shared/api-client.ts";
import { logActivity } from "../../shared/state/activity.ts";
import { currentConnection } from "../connection.ts";
import { setContextStatus, setStatus } from "../../shared/state/status.ts";
import { stored } from "../../shared/state/store.ts";
import { interestState, liveLabels } from "../../shared/state/interest.ts";
import { capturePage } from "./capture.ts";
import { DOM_CHANGED, installDomWatch } from "./dom-watch.ts";
import { livingStateSchema, writeLiving } from "./living-breadcrumb.ts";
import { UpdateScheduler } from "./scheduler.ts";

// The page-context tracker: the triggers of docs/extension.md feed one scheduler; each run captures
// the active tab and writes the living breadcrumb, only while some agent listens (a live
// browser.context.interest.v1 lease, shared/state/interest.ts); without one it reads nothing. Listeners are registered in the worker's first
// turn (MV3 wakes a stopped worker for them); everything it must remember is in storage.

export const livingState = stored("crumbs.living", z.nullable(livingStateSchema), () => null);
/** The breadcrumb as the API last answered this worker's write: the base of the next merge patch. */
const lastWritten: { current?: Breadcrumb } = {};

const DOM_THRESHOLD = 5;
const DOM_QUIET_MS = 300;

export interface Tracker {
  /** Ask for an update of the active tab (debounced and rate limited). */
  trigger(reason: string): void;
  /** Capture now, bypassing the scheduler; for a worker start and for tests. */
  runOnce(): Promise<void>;
  /**
   * This worker's page reads for the context, the reads that found the page as last written (no
   * write), and the runs that read nothing since nobody listened: tests wait on them, not on time.
   */
  counts(): { captures: number; unchanged: number; paused: number };
}

const counts = { captures: 0, unchanged: 0, paused: 0 };

async function activeTab(): Promise<chrome.tabs.Tab | undefined> {
  return targetTab().catch(() => undefined);
}

async function watchDom(tabId: number): Promise<void> {
  await chrome.scripting
    .executeScript({ target: { tabId }, func: installDomWatch, args: [DOM_CHANGED, DOM_THRESHOLD, DOM_QUIET_MS] })
    .catch(() => {});
}

async function captureActive(): Promise<void> {
  const conn = await currentConnection();
  if (!conn) return;
  // Nobody listens (no live browser.context.interest.v1 lease): the page is not read at all.
  if (liveLabels(await interestState.get(), Date.now()).length === 0) {
    counts.paused++;
    return;
  }
  const tab = await activeTab();
  // Restricted pages (chrome://, the web store) keep the last page's context; a loading page gets its
  // update when it completes.
  if (!tab?.id || !tab.url || isRestrictedUrl(tab.url) || tab.url === "about:blank" || tab.status === "loading") return;
  const saved = await livingState.get();
  const owner = saved?.connection === conn.key ? saved.owner : conn.config.owner;
  try {
    await watchDom(tab.id);
    counts.captures++;
    const update = await capturePage({ tab, extensionId: chrome.runtime.id, owner });
    const { outcome, state } = await writeLiving(
      { api: conn.api, extensionId: chrome.runtime.id, connection: conn.key, state: livingState, lastWritten },
      update,
    );
    void setStatus("api", "connected");
    if (outcome === "unchanged") counts.unchanged++;
    else {
      await setContextStatus({ id: state.id, version: state.version, url: String(update.context.url), tabId: tab.id, error: undefined });
      void logActivity("context", `page context v${state.version}: ${String(update.context.title) || String(update.context.url)}`, true);
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await setContextStatus({ error: message });
    if (apiIsAway(e)) void setStatus("api", "error", message);
  }
}

export function startTracker(): Tracker {
  const scheduler = new UpdateScheduler(captureActive);
  const trigger = (_reason: string) => scheduler.trigger();
  const ifActive = (tabId: number) =>
    void chrome.tabs.get(tabId).then(
      (t) => t.active && trigger("navigation"),
      () => {},
    );

  chrome.tabs.onActivated.addListener(() => trigger("activated"));
  chrome.tabs.onUpdated.addListener((_id, change, tab) => {
    if (tab.active && (change.status === "complete" || change.title !== undefined)) trigger("updated");
  });
  chrome.webNavigation.onCommitted.addListener((d) => d.frameId === 0 && ifActive(d.tabId));
  chrome.webNavigation.onHistoryStateUpdated.addListener((d) => d.frameId === 0 && ifActive(d.tabId));
  chrome.webNavigation.onReferenceFragmentUpdated.addListener((d) => d.frameId === 0 && ifActive(d.tabId));
  chrome.windows.onFocusChanged.addListener((w) => w !== chrome.windows.WINDOW_ID_NONE && trigger("focus"));
  chrome.runtime.onMessage.addListener((msg: unknown, sender) => {
    if ((msg as { kind?: unknown } | null)?.kind === DOM_CHANGED && sender.tab?.active) trigger("dom");
    return false;
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && ["apiUrl", "token", "natsWsUrl"].some((k) => k in changes)) trigger("settings");
  });
  return { trigger, runOnce: captureActive, counts: () => ({ ...counts }) };
}
