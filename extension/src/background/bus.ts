import { execute } from "./commands/execute.ts";
import { startTracker, type Tracker } from "./context/tracker.ts";
import { ActionRunner } from "./tasks/action-runner.ts";
import { startActionLoop } from "./nats/consumer.ts";
import { sendChat } from "./tasks/chat.ts";
import { currentConnection } from "./connection.ts";
import { testConnection } from "./connection-test.ts";
import { ensureAlarm, holdWorker, KEEPALIVE_ALARM, releaseWorker } from "./keepalive.ts";
import { revokeGrant } from "../shared/state/control.ts";
import { maskedTabs, syncMask } from "./tasks/mask.ts";
import { MASK_STOP_MESSAGE } from "./tasks/mask-page.ts";
import { panelRequestSchema, type PanelRequest, type PanelResponse } from "../shared/panel-messages.ts";
import { NatsLink } from "./nats/link.ts";
import { consumerFor } from "./nats/credentials.ts";
import { ownerOf } from "./context/owner.ts";
import { watchInterest } from "./context/interest-watch.ts";
import { INTEREST_SCHEMA } from "@crumbs/schemas/interest";
import { setStatus } from "../shared/state/status.ts";
import { stopTasks } from "./tasks/stop.ts";
import { watchTaskEnds } from "./tasks/task-end.ts";
import { startBadge } from "./toolbar/badge.ts";
import { FailureStreak } from "./failure-streak.ts";
import { logActivity } from "../shared/state/activity.ts";

// The worker's bus features, started on every worker start (MV3 may stop the worker at any time;
// a fresh one rebuilds everything from storage). All listeners are registered synchronously here.

export interface Bus {
  tracker: Tracker;
  runner: ActionRunner;
  link: NatsLink;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startBus(): Bus {
  const extensionId = chrome.runtime.id;
  const tracker = startTracker();
  const runner = new ActionRunner({ connection: currentConnection, execute, extensionId });
  // The runner reads the stored actions; when storage fails, the next kick (an action, a reconnect,
  // the keepalive alarm) tries again, and the activity log shows it.
  const starting = new FailureStreak("starting the stored actions", (text, ok) => void logActivity("error", text, ok));
  const kick = () => void runner.kick().then(() => starting.succeeded(), (err: unknown) => starting.failed(err));

  const link = new NatsLink({
    async session(nc, conn, auth) {
      // The owner: the credentials name it; on an open NATS (no owner accounts) it comes from the API,
      // retried while the API is away, as long as NATS is up.
      let owner: string | undefined = auth.mode === "credentials" ? auth.owner : undefined;
      for (let i = 0; !owner && !nc.isClosed(); i++) {
        owner = await ownerOf(conn, extensionId).catch(async (e: unknown) => {
          await setStatus("api", "error", e instanceof Error ? e.message : String(e));
          await sleep(Math.min(10_000, 500 * 2 ** i));
          return undefined;
        });
      }
      if (!owner) return { stop: async () => {} };
      await setStatus("api", "connected", conn.config.apiUrl);
      kick();
      const getBreadcrumb = (id: string) => conn.api.get(id);
      const actions = startActionLoop(nc, { owner, extensionId, consumer: consumerFor(auth, owner, extensionId), onAccepted: kick, getBreadcrumb });
      const ends = watchTaskEnds(nc, { owner, extensionId, getBreadcrumb });
      // Capture at once when the first listener appears; renewals of a live lease change nothing.
      let listened = false;
      const interest = watchInterest(nc, {
        owner,
        extensionId,
        list: () => conn.api.list({ schema_name: INTEREST_SCHEMA, limit: 100 }),
        getBreadcrumb,
        onChange(live) {
          if (live && !listened) tracker.trigger("interest");
          listened = live;
        },
      });
      return { stop: () => Promise.all([actions.stop(), ends.stop(), interest.stop()]).then(() => {}) };
    },
    onReconnect: kick,
    onOpen: holdWorker,
    onClose: releaseWorker,
  });

  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name !== KEEPALIVE_ALARM) return;
    void link.ensure();
    kick();
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && ["apiUrl", "token", "natsWsUrl"].some((k) => k in changes)) void link.ensure();
  });
  chrome.tabs.onActivated.addListener(() => void syncMask());
  chrome.windows.onFocusChanged.addListener(() => void syncMask());
  chrome.tabs.onUpdated.addListener((_id, change) => change.status === "complete" && void syncMask());
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    if (sender.id !== extensionId) return false;
    // Esc or Stop on the mask, from the mask's isolated world in a tab that shows it. Pages cannot
    // send this (no externally_connectable) and the mask reacts only to trusted input.
    const tabId = sender.tab?.id;
    if ((raw as { kind?: unknown })?.kind === MASK_STOP_MESSAGE && tabId !== undefined) {
      void maskedTabs().then(async (masked) => {
        if (!masked.includes(tabId)) return;
        await stopTasks(await currentConnection(), extensionId, { tabId }, "the user pressed Esc on the page while the agent acted");
        kick();
      });
      return false;
    }
    // Everything else only from the extension's own pages (side panel, options); content scripts share the id but not the origin.
    if (!sender.url?.startsWith(`chrome-extension://${extensionId}/`)) return false;
    const parsed = panelRequestSchema.safeParse(raw);
    if (!parsed.success) return false;
    answer(parsed.data).then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }));
    return true;
  });
  // Opening the side panel from the toolbar button.
  void chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});

  async function answer(req: PanelRequest): Promise<PanelResponse> {
    switch (req.kind) {
      case "crumbs:chat": {
        const conn = await currentConnection();
        if (!conn) return { ok: false, error: "not configured: open the options page" };
        return { ok: true, id: await sendChat(conn, extensionId, req.content, req.session_id) };
      }
      case "crumbs:decide": {
        const found = await runner.decide(req.request_id, req.approve, req.grant ?? false);
        return found ? { ok: true } : { ok: false, error: "that action is no longer waiting" };
      }
      case "crumbs:stop": {
        const stopped = await stopTasks(await currentConnection(), extensionId, { session: req.session }, "the user pressed Stop in the side panel");
        kick();
        return stopped.length ? { ok: true } : { ok: false, error: "no running task in that session" };
      }
      case "crumbs:revoke-grant":
        await revokeGrant(req.site, req.grant_kind);
        return { ok: true };
      case "crumbs:test-connection":
        return { ok: true, test: await testConnection(req.settings) };
      case "crumbs:reconnect":
        await link.close();
        await link.ensure();
        return { ok: true };
    }
  }

  startBadge();
  void ensureAlarm();
  void link.ensure();
  kick();
  tracker.trigger("start");
  return { tracker, runner, link };
}
