import * as z from "@crumbs/schemas/zod-mini";
import { RISK_KINDS, type Grant } from "../../risk/risk.ts";
import { stored } from "./store.ts";

// What the user decided about agents, in storage: "always allow" grants per site and kind (the
// options page lists and revokes them), the tasks they stopped, and the task each session is
// running (the side panel's "Running" card).

export const GRANTS_KEY = "crumbs.grants";
export const grantSchema = z.object({ site: z.string(), kind: z.enum(RISK_KINDS), granted_at: z.string() });
export const grants = stored(GRANTS_KEY, z.array(grantSchema), () => [] as Grant[]);

export async function addGrant(site: string, kind: string): Promise<void> {
  const k = z.enum(RISK_KINDS).safeParse(kind);
  if (!k.success) return;
  await grants.update((list) =>
    list.some((g) => g.site === site && g.kind === k.data) ? list : [...list, { site, kind: k.data, granted_at: new Date().toISOString() }],
  );
}

export async function revokeGrant(site: string, kind: string): Promise<void> {
  await grants.update((list) => list.filter((g) => !(g.site === site && g.kind === kind)));
}

/** A stopped task: by its root when known, else the whole session up to `at`. */
export const cancelSchema = z.object({ session: z.string(), root: z.optional(z.string()), at: z.string() });
export type Cancel = z.infer<typeof cancelSchema>;
const MAX_CANCELS = 200;
export const cancels = stored("crumbs.cancelled", z.array(cancelSchema), () => []);

export function isCancelledBy(list: readonly Cancel[], e: { session: string; created_at: string; task?: { root: { id: string } } | undefined }): boolean {
  return list.some((c) => c.session === e.session && (e.task ? c.root === e.task.root.id || (!c.root && e.created_at <= c.at) : e.created_at <= c.at));
}

export async function recordCancel(c: Cancel): Promise<void> {
  await cancels.update((list) => [...list, c].slice(-MAX_CANCELS));
}

export const TASKS_KEY = "crumbs.tasks";
export const taskViewSchema = z.object({
  session: z.string(),
  agent: z.optional(z.string()),
  root: z.optional(z.object({ id: z.string(), version: z.number().check(z.int()) })),
  step: z.optional(z.number().check(z.int())),
  max_steps: z.optional(z.number().check(z.int())),
  last_action: z.optional(z.string()),
  /** done: the agent's last answer came (agent.response.v1 `final`); the card goes at once. */
  state: z.enum(["running", "stopped", "done"]),
  updated_at: z.string(),
});
export type TaskView = z.infer<typeof taskViewSchema>;
export const tasks = stored(TASKS_KEY, z.record(z.string(), taskViewSchema), () => ({}));

const MAX_TASKS = 20;

export async function noteTask(session: string, patch: Partial<TaskView>): Promise<void> {
  await tasks.update((all) => {
    const prev = all[session];
    const next: TaskView = { session, state: "running", ...prev, ...patch, updated_at: new Date().toISOString() };
    const entries = Object.entries({ ...all, [session]: next })
      .sort((a, b) => b[1].updated_at.localeCompare(a[1].updated_at))
      .slice(0, MAX_TASKS);
    return Object.fromEntries(entries);
  });
}
