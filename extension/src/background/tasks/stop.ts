import { TASK_CANCEL_SCHEMA, TASK_CANCEL_TAG } from "@crumbs/schemas/task-cancel";
import { logActivity } from "../../shared/state/activity.ts";
import { noteTask, recordCancel, tasks } from "../../shared/state/control.ts";
import type { Connection } from "../connection.ts";
import { inbox, removeEntry, type InboxEntry, type ResultContext } from "../../shared/state/inbox.ts";
import { postResult } from "./results.ts";
import { syncMask } from "./mask.ts";
import { ungroupTask } from "./tab-group.ts";
import { scopes } from "./tab-scope.ts";
import { endTrustedInput } from "../commands/trusted-input.ts";

// Stop: the user ends an agent's task from the side panel or with Esc on the page's mask. At once,
// in storage first (so nothing queued starts): the task is marked stopped and its waiting actions
// are answered `cancelled`. Then the runner is told with a browser.task.cancel.v1 breadcrumb per
// task, so it ends the model loop and records the task as cancelled.

export const CANCELLED_MESSAGE = "the user stopped this task before the action ran";

export interface StopTarget {
  session?: string;
  /** Esc on the mask: every session acting on this tab. */
  tabId?: number;
}

const active = (e: InboxEntry) => e.state !== "done";

async function sessionsFor(target: StopTarget): Promise<string[]> {
  if (target.session) return [target.session];
  const [entries, all, views] = await Promise.all([inbox.get(), scopes.get(), tasks.get()]);
  const out = new Set<string>();
  for (const e of entries) if (active(e) && (e.tab_id ?? all[e.session]?.current) === target.tabId) out.add(e.session);
  for (const v of Object.values(views)) if (v.state === "running" && all[v.session]?.current === target.tabId) out.add(v.session);
  return [...out];
}

export async function stopTasks(conn: Connection | undefined, extensionId: string, target: StopTarget, reason: string): Promise<string[]> {
  const sessions = await sessionsFor(target);
  // Trusted input ends first: the debugger detaches from the sessions' tabs now, not when their running action ends.
  const all = await scopes.get();
  const tabIds = new Set(sessions.flatMap((s) => all[s]?.tabs ?? []));
  if (target.tabId !== undefined) tabIds.add(target.tabId);
  await endTrustedInput([...tabIds]);
  const at = new Date().toISOString();
  const views = await tasks.get();
  const writes: Array<Promise<unknown>> = [];
  for (const session of sessions) {
    const roots = new Map<string, { root: { id: string; version: number }; agent: string }>();
    const view = views[session];
    if (view?.root && view.agent) roots.set(view.root.id, { root: view.root, agent: view.agent });
    for (const e of await inbox.get()) if (e.session === session && e.task) roots.set(e.task.root.id, { root: e.task.root, agent: e.task.agent_id });
    // Recorded first: an action of this task that is about to start checks it and does not run.
    if (roots.size === 0) await recordCancel({ session, at });
    for (const { root } of roots.values()) await recordCancel({ session, root: root.id, at });
    const dropped: string[] = [];
    const answered: InboxEntry[] = [];
    await inbox.update((list) =>
      list.map((e) => {
        // A running action finishes (it cannot be taken back half-way); everything after it is dropped.
        if (e.session !== session || (e.state !== "queued" && e.state !== "awaiting_confirmation")) return e;
        dropped.push(e.request_id);
        const result: ResultContext = {
          request_id: e.request_id,
          action_id: e.action_id,
          status: "error",
          code: "cancelled",
          message: CANCELLED_MESSAGE,
          observation: { url: "", title: "", url_changed: false },
        };
        const done = { ...e, state: "done" as const, result };
        answered.push(done);
        return done;
      }),
    );
    await noteTask(session, { state: "stopped" });
    await ungroupTask(session);
    void logActivity("action", `stopped the agent's task (session ${session.slice(0, 8)}): ${dropped.length} waiting action(s) dropped`, false);
    if (!conn) continue;
    const targets = roots.size ? [...roots.values()] : [undefined];
    for (const t of targets) {
      writes.push(
        conn.api
          .create(
            {
              schema_name: TASK_CANCEL_SCHEMA,
              title: `stopped by the user${t ? `: ${t.agent}` : ""}`,
              tags: [TASK_CANCEL_TAG, `session:${session}`, `extension:${extensionId}`, ...(t ? [`agent:${t.agent}`] : [])],
              context: {
                session_id: session,
                ...(t ? { agent_id: t.agent, root: t.root } : {}),
                extension_id: extensionId,
                reason,
                dropped,
              },
            },
            `cancel:${session}:${t?.root.id ?? at}`,
          )
          .catch((e: unknown) => logActivity("error", `could not tell the runner about the stop: ${e instanceof Error ? e.message : String(e)}`, false)),
      );
    }
    // Answered now, after the cancel (so a runner reading a result finds it), not after the
    // running action: the session's queue posts its results only in order.
    const told = Promise.all(writes.splice(0));
    writes.push(
      told.then(async () => {
        for (const e of answered) if ((await postResult(conn, e, e.result!, extensionId)) !== "retry") await removeEntry(e.request_id);
      }),
    );
  }
  await syncMask({ linger: false });
  await Promise.all(writes);
  return sessions;
}
