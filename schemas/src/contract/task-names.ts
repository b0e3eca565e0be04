// The names of browser.task.v1 (its schema name, tag and statuses): plain data without zod, so a bundle that
// only shows tasks (the extension's side panel) does not carry the task's schemas and the page capability
// view's they build on (task-schema.ts, which re-exports these).

export const TASK_SCHEMA = "browser.task.v1";
/** Every task breadcrumb carries this tag, beside `session:<id>` and `agent:<id>`. */
export const TASK_TAG = "browser:task";

export const TASK_STATUSES = [
  "created",
  "planning",
  "exploring",
  "executing",
  /** Waiting for the user: a confirmation before a high-risk step, or a value only they can give. */
  "awaiting_user",
  /** Cannot go on without a change the agent cannot make (no route to the goal, a page refused input). */
  "blocked",
  "succeeded",
  "failed",
  "cancelled",
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** After one of these the task never changes again. */
export const TASK_FINAL_STATUSES: ReadonlySet<TaskStatus> = new Set<TaskStatus>(["succeeded", "failed", "cancelled"]);

export const PLAN_STEP_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;

/** What a task's title says of it at one version (the fields of browser.task.v1 it reads). */
export interface TaskTitleFacts {
  goal: string;
  status: TaskStatus;
  progress: number;
  history?: ReadonlyArray<{ call: { action: string }; result: { ok: boolean; code?: string } }>;
}

/**
 * The title of a task breadcrumb at each version: the agent and goal, the status and progress, and the
 * step it just recorded. `crumbs replay` prints one line per event with the title, so a replay of a
 * task's history reads as its steps in order; the dashboard and the side panel read the context.
 */
export function taskTitle(agentId: string, task: TaskTitleFacts): string {
  const goal = task.goal.replace(/\s+/g, " ").slice(0, 80);
  const last = task.history?.at(-1);
  const step = last ? ` · step ${task.history!.length} ${last.call.action} ${last.result.ok ? "ok" : (last.result.code ?? "failed")}` : "";
  return `${agentId}: ${goal} · ${task.status} ${Math.round(task.progress * 100)}%${step}`;
}
