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
