import { TASK_LIMITS, pcdSchema, type Pcd, type StepRecord, type TaskContext } from "@crumbs/schemas";
import { parseGoal, type Goal } from "./goal.ts";
import type { Call, ControlledTask, Emit, Next, Outcome } from "./types.ts";

// The task's state as the user sees it: each browser call numbered and emitted, each result recorded
// as a step (clipped to the contract's limits), the progress estimate, and the end of the task.

export const PERCEIVE: Call = { action: "snapshot", params: { pcd: true, max_tokens: 200 }, risk: "low" };

export function goalOf(task: TaskContext, now: Date): Goal {
  return parseGoal(task.goal, new Date(task.started_at || now.toISOString()));
}

export function emit(task: ControlledTask, e: Omit<Emit, "step">): Next {
  const s = task.controller;
  s.calls++;
  s.pending = { ...e, step: s.calls };
  return { kind: "act", emit: s.pending };
}

export function finish(task: ControlledTask, status: "succeeded" | "failed" | "blocked", message: string, now: Date): Next {
  task.status = status;
  task.message = message.slice(0, TASK_LIMITS.text);
  if (status === "succeeded") task.progress = 1;
  delete task.controller.pending;
  task.updated_at = now.toISOString();
  return { kind: "done", status, message: task.message };
}

/** Parses the page capability view out of a snapshot result. */
export function pcdOf(data: unknown): Pcd | undefined {
  const pcd = (data as { pcd?: unknown } | undefined)?.pcd;
  const parsed = pcdSchema.safeParse(pcd);
  return parsed.success ? parsed.data : undefined;
}

export function describeTarget(params: Record<string, unknown>): string | undefined {
  if (typeof params.ref === "string") return `ref ${params.ref}`;
  const sel = params.selector as { role?: string; name?: string } | undefined;
  if (sel?.role) return `${sel.role} "${sel.name ?? ""}"`;
  if (typeof params.url === "string") return params.url;
  if (typeof params.query === "string") return `query "${params.query}"`;
  return undefined;
}

export const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function record(task: ControlledTask, pending: Emit, o: Outcome, observation: string | undefined): void {
  const params = JSON.stringify(pending.call.params).length <= TASK_LIMITS.params ? pending.call.params : { omitted: "too long" };
  const r: StepRecord = {
    ...(pending.step_id ? { step_id: pending.step_id } : {}),
    ...(pending.skill ? { skill: pending.skill } : {}),
    call: { action: pending.call.action, params, ...(o.request_id ? { request_id: o.request_id } : {}) },
    ...(pending.selector ? { selector: clip(pending.selector, TASK_LIMITS.label) } : {}),
    started_at: o.started_at,
    duration_ms: Math.max(0, Math.round(o.duration_ms)),
    result: { ok: o.ok, ...(o.code ? { code: o.code } : {}), ...(o.message ? { message: clip(o.message, TASK_LIMITS.text) } : {}) },
    ...(observation ? { observation: clip(observation, TASK_LIMITS.text) } : {}),
    ...(o.observation?.url ? { url: clip(o.observation.url, TASK_LIMITS.url) } : {}),
    ...(task.controller.pcd_version ? { pcd_version: task.controller.pcd_version } : {}),
  };
  task.history.push(r);
  if (task.history.length > TASK_LIMITS.history) {
    const drop = task.history.length - TASK_LIMITS.history;
    task.history.splice(0, drop);
    task.history_dropped = (task.history_dropped ?? 0) + drop;
  }
}

export function summarise(pcd: Pcd): string {
  const forms = pcd.forms.map((f) => f.purpose ?? "form").join(", ");
  const cols = pcd.collections.map((c) => `${c.label ?? c.itemRole ?? "list"} (${c.count})`).join(", ");
  return `${pcd.title} at ${pcd.url}; signed ${pcd.loginState}; ${pcd.actions.length} actions${forms ? `; forms: ${forms}` : ""}${cols ? `; lists: ${cols}` : ""}`;
}

/** Plan steps not yet run, in order. */
export const pendingSteps = (task: TaskContext) => task.plan.filter((p) => p.status === "pending" || p.status === "running");

export function updateProgress(task: ControlledTask): void {
  const done = task.plan.filter((p) => p.status === "done").length;
  const left = pendingSteps(task).length;
  const visits = task.controller.explore?.visits ?? 0;
  // Until the goal page is reached, about three more steps are ahead (reach it, act, verify).
  const ahead = task.controller.at_goal ? 0 : 3;
  const p = (done + visits * 0.5 + 1) / (done + left + visits * 0.5 + ahead + 2);
  task.progress = Math.max(task.progress, Math.min(0.95, Math.round(p * 100) / 100));
}
