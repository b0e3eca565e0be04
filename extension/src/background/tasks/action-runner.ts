import type { WireAssessment } from "../../shared/action-error.ts";
import { assessRisk, needsConfirmation, type Risk } from "../../risk/risk.ts";
import { siteOf } from "../../risk/site.ts";
import type { ExecuteResult } from "../../shared/command.ts";
import { logActivity } from "../../shared/state/activity.ts";
import { awaitDecision } from "./confirm.ts";
import type { Connection } from "../connection.ts";
import { addGrant, cancels, grants, isCancelledBy, noteTask } from "../../shared/state/control.ts";
import { inbox, patchEntry, removeEntry, type InboxEntry, type ResultContext } from "../../shared/state/inbox.ts";
import { syncMask } from "./mask.ts";
import { checkWrite } from "../../risk/allowlist.ts";
import { postResult } from "./results.ts";
import { addToTaskGroup } from "./tab-group.ts";
import { agentStartTab } from "./start-tab.ts";
import { CANCELLED_MESSAGE } from "./stop.ts";
import { allows, getScope, newScope, setScope, withClosed, withCurrent, withOpened, withSite, type TabScope } from "./tab-scope.ts";

// Works through the stored inbox: one queue per agent session (actions run in the order the agent
// wrote them), at most one action at a time per tab, the tab restriction, then the action itself.
// Write actions carry a guard: the page checks, right before acting, the frame's site against the
// allowlist or the task's sites, refuses secret fields, and decides the risk from the element; a
// high-risk action comes back unrun, the user is asked, and it is sent again with the approval.

export interface RunnerDeps {
  connection(): Promise<Connection | undefined>;
  execute(command: unknown): Promise<ExecuteResult>;
  extensionId: string;
  now?: () => number;
  confirmTimeoutMs?: number;
  maxAgeMs?: number;
}

const CONFIRM_TIMEOUT_MS = 5 * 60_000;
/** An action older than this when the browser gets it (browser closed, NATS down for long) is not run. */
const MAX_AGE_MS = 10 * 60_000;
const TAB_ACTIONS_WITH_PARAM_TAB = new Set(["open", "tab_switch", "tab_close"]);
/** Run by the worker, not the page: their risk is decided here. */
const WORKER_ACTIONS = new Set(["open", "tab_new", "tab_list", "tab_switch", "tab_close"]);

type Outcome = Omit<ResultContext, "request_id" | "action_id" | "observation">;
const fail = (code: string, message: string): Outcome => ({ status: "error", code, message });

async function tabInfo(tabId: number | undefined): Promise<{ url: string; title: string } | undefined> {
  if (tabId === undefined) return undefined;
  const t = await chrome.tabs.get(tabId).catch(() => undefined);
  return t ? { url: t.url ?? t.pendingUrl ?? "", title: t.title ?? "" } : undefined;
}

async function clearHighlights(tabId: number): Promise<void> {
  const frames = (await chrome.webNavigation?.getAllFrames({ tabId }).catch(() => null)) ?? [{ frameId: 0 }];
  await Promise.all(frames.map((f) => chrome.tabs.sendMessage(tabId, { kind: "clear-highlight" }, { frameId: f.frameId }).catch(() => {})));
}

export class ActionRunner {
  private readonly sessions = new Set<string>();
  private readonly tabLocks = new Map<number, Promise<unknown>>();
  private readonly now: () => number;

  constructor(private readonly deps: RunnerDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Starts a queue for every session with stored work that is not being worked on. */
  async kick(): Promise<void> {
    await this.dropCancelled();
    const entries = await inbox.get();
    for (const session of new Set(entries.map((e) => e.session))) {
      if (this.sessions.has(session)) continue;
      this.sessions.add(session);
      void this.runSession(session).finally(() => this.sessions.delete(session));
    }
  }

  /** The user's answer to a confirmation (from the side panel); `grant`: always allow this kind on this site. */
  async decide(requestId: string, approve: boolean, grant = false): Promise<boolean> {
    let found = false;
    await inbox.update((list) =>
      list.map((e) => {
        if (e.request_id !== requestId || e.state !== "awaiting_confirmation") return e;
        found = true;
        return { ...e, decision: approve ? "approved" : "denied", grant: approve && grant };
      }),
    );
    return found;
  }

  private async runSession(session: string): Promise<void> {
    for (;;) {
      const entry = (await inbox.get()).find((e) => e.session === session);
      if (!entry) break;
      const conn = await this.deps.connection();
      if (!conn) break;
      if (entry.state === "running") {
        // This worker never started it: the previous one was stopped while it ran. Running it again
        // could do it twice; report it instead.
        await this.finish(entry, fail("timeout", "interrupted: the browser or its extension worker restarted while this action ran; take a snapshot to see the page's state"), undefined, undefined);
      } else if (entry.state !== "done") {
        await this.run(conn, entry);
      }
      const current = (await inbox.get()).find((e) => e.request_id === entry.request_id);
      if (current?.result) {
        const outcome = await postResult(conn, current, current.result, this.deps.extensionId);
        if (outcome === "retry") break; // the API is away; the keepalive alarm tries again
        await removeEntry(current.request_id);
        if (outcome === "dropped") void logActivity("error", `result of ${current.title} could not be written`, false);
        void syncMask();
      }
    }
  }

  /**
   * An action of a stopped task that arrives later (the runner wrote it before it saw the stop) is
   * answered `cancelled` at once, not after the action its session is still running.
   */
  private async dropCancelled(): Promise<void> {
    const list = await cancels.get();
    const late = (await inbox.get()).filter((e) => e.state === "queued" && isCancelledBy(list, e));
    if (!late.length) return;
    const conn = await this.deps.connection();
    for (const e of late) {
      const result: ResultContext = { request_id: e.request_id, action_id: e.action_id, ...fail("cancelled", CANCELLED_MESSAGE), observation: { url: "", title: "", url_changed: false } };
      await patchEntry(e.request_id, { state: "done", result });
      void logActivity("result", `${e.title}: cancelled (the task was stopped)`, false);
      if (conn && (await postResult(conn, e, result, this.deps.extensionId)) !== "retry") await removeEntry(e.request_id);
    }
  }

  private async cancelled(entry: InboxEntry): Promise<boolean> {
    return isCancelledBy(await cancels.get(), entry);
  }

  private async run(conn: Connection, entry: InboxEntry): Promise<void> {
    if (this.now() - Date.parse(entry.created_at) > (this.deps.maxAgeMs ?? MAX_AGE_MS)) {
      return this.finish(entry, fail("timeout", "the action expired before the browser could run it"), undefined, undefined);
    }
    if (await this.cancelled(entry)) return this.finish(entry, fail("cancelled", CANCELLED_MESSAGE), undefined, undefined);
    if (entry.task) void noteTask(entry.session, { agent: entry.task.agent_id, root: entry.task.root, step: entry.task.step, ...(entry.task.max_steps ? { max_steps: entry.task.max_steps } : {}), last_action: entry.title, state: "running" });
    let scope = await getScope(entry.session);
    if (!scope) {
      // The session's first action: the tab the user is on is the one the agent started on.
      const start = await agentStartTab();
      if (start === undefined) return this.finish(entry, fail("not_found", "no active tab to act on"), undefined, undefined);
      const site = siteOf((await tabInfo(start))?.url);
      scope = newScope(start, site ? [site] : []);
      await setScope(entry.session, scope);
    }
    const paramTab = TAB_ACTIONS_WITH_PARAM_TAB.has(entry.action) ? (entry.params.tab_id as number | undefined) : undefined;
    const explicit = entry.tab_id ?? paramTab;
    if (explicit !== undefined && !allows(scope, explicit)) {
      const refusal = fail(
        "blocked_by_policy",
        `tab ${explicit} is not one this task may use: an agent may switch only to the tab where its task started and the tabs it opened (tab_list shows them)`,
      );
      return this.finish(entry, refusal, scope.current, undefined);
    }
    const target = explicit ?? scope.current;
    const before = await tabInfo(target);
    if (!before && entry.action !== "tab_new" && entry.action !== "tab_list") {
      return this.finish(entry, fail("not_found", `tab ${target} is gone; use tab_list or tab_new`), undefined, undefined);
    }

    const allowlist = conn.config.allowlist;
    const destination = entry.action === "open" || entry.action === "tab_new" ? (entry.params.url as string | undefined) : undefined;
    if (destination !== undefined) {
      // Where a navigation goes is checked here; a page's own frames are checked by the page.
      const verdict = checkWrite(entry.action, destination, allowlist);
      if (!verdict.allowed) {
        void logActivity("policy", `blocked ${entry.title}: ${verdict.reason}`, false);
        return this.finish(entry, fail("blocked_by_policy", verdict.reason), target, before);
      }
    }

    const approved = [...(entry.approved ?? [])];
    let result: ExecuteResult;
    for (;;) {
      const granted = await grants.get();
      let ask: WireAssessment | undefined;
      if (WORKER_ACTIONS.has(entry.action)) {
        const a = assessRisk({ action: entry.action, pageUrl: before?.url ?? "", ...(destination ? { url: destination } : {}), ...(entry.risk ? { requested: entry.risk as Risk } : {}) });
        if (needsConfirmation(a, approved, granted)) ask = a;
      }
      if (!ask) {
        if (await this.cancelled(entry)) return this.finish(entry, fail("cancelled", CANCELLED_MESSAGE), target, before);
        await patchEntry(entry.request_id, { state: "running" });
        void syncMask();
        void logActivity("action", `running ${entry.title}`);
        const guard = { approved, grants: granted, ...(allowlist ? { allowlist } : {}), sites: scope.sites, ...(entry.risk ? { requested: entry.risk } : {}) };
        const worker = entry.action === "tab_new" || entry.action === "tab_list";
        result = await this.withTabLock(target, () => this.deps.execute({ type: entry.action, params: entry.params, ...(worker ? {} : { tab_id: target }), guard }));
        ask = result.confirm;
        if (!ask) break;
      }
      const deadline = this.now() + (this.deps.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS);
      const answer = await awaitDecision(entry, ask, deadline, this.now);
      void clearHighlights(target);
      if (answer.decision !== "approved") {
        const refusal =
          answer.decision === "denied"
            ? fail("blocked_by_policy", "the user declined this action")
            : answer.decision === "cancelled"
              ? fail("cancelled", CANCELLED_MESSAGE)
              : fail("timeout", "the user did not confirm this action in time");
        return this.finish(entry, refusal, target, before);
      }
      if (ask.kind) approved.push(ask.kind);
      await patchEntry(entry.request_id, { approved });
      if (answer.grant && ask.kind) await addGrant(ask.site, ask.kind);
      if (ask.kind === "leave_site" && destination) {
        // The user let the agent go there: it may act on that site too.
        scope = withSite(scope, siteOf(destination));
        await setScope(entry.session, scope);
      }
    }
    const outcome = await this.afterExecute(entry, scope, result);
    const finalTab = (await getScope(entry.session))?.current ?? target;
    await this.finish(entry, outcome, finalTab, before);
  }

  /** Updates the session's tabs after tab commands; filters tab_list to the tabs the agent may use. */
  private async afterExecute(entry: InboxEntry, scope: TabScope, result: ExecuteResult): Promise<Outcome> {
    if (!result.success) {
      const failed = fail(result.code ?? "not_actionable", result.error ?? "failed");
      return result.candidates?.length ? { ...failed, candidates: result.candidates } : failed;
    }
    const data = result.data as Record<string, unknown> | undefined;
    scope = (await getScope(entry.session)) ?? scope;
    if (entry.action === "tab_new" && typeof data?.tab_id === "number") {
      await setScope(entry.session, withOpened(scope, data.tab_id));
      await addToTaskGroup(entry.session, data.tab_id, (entry.task?.root.id ?? entry.session).slice(0, 8));
    }
    if (entry.action === "tab_switch" && typeof data?.tab_id === "number") await setScope(entry.session, withCurrent(scope, data.tab_id));
    if (entry.action === "tab_close" && typeof data?.closed === "number") await setScope(entry.session, withClosed(scope, data.closed));
    if (entry.action === "tab_list" && Array.isArray(data?.tabs)) {
      const tabs = (data.tabs as Array<{ tab_id?: number }>).filter((t) => t.tab_id !== undefined && allows(scope, t.tab_id));
      return { status: "ok", data: { tabs, current_tab_id: scope.current } };
    }
    const rebound = result.rebound ? { rebound: true, ref: result.rebound.ref } : {};
    return data === undefined ? { status: "ok", ...rebound } : { status: "ok", data, ...rebound };
  }

  private async finish(entry: InboxEntry, outcome: Outcome, tabId: number | undefined, before: { url: string } | undefined) {
    await new Promise((r) => setTimeout(r, 100)); // let a navigation the action caused commit
    const after = (await tabInfo(tabId)) ?? { url: before?.url ?? "", title: "" };
    const result: ResultContext = {
      request_id: entry.request_id,
      action_id: entry.action_id,
      ...outcome,
      observation: { url: after.url, title: after.title, url_changed: before !== undefined && after.url !== before.url },
    };
    await patchEntry(entry.request_id, { state: "done", result });
    const text = result.status === "ok" ? `${entry.title}: ok${result.observation.url_changed ? ` -> ${after.url}` : ""}` : `${entry.title}: ${result.code} (${result.message})`;
    void logActivity("result", text, result.status === "ok");
  }

  private withTabLock<T>(tabId: number, fn: () => Promise<T>): Promise<T> {
    const prev = this.tabLocks.get(tabId) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(fn);
    this.tabLocks.set(tabId, next);
    return next.finally(() => {
      if (this.tabLocks.get(tabId) === next) this.tabLocks.delete(tabId);
    });
  }
}
