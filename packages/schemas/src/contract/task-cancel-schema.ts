import { z } from "zod";

// browser.task.cancel.v1: the user stopped an agent's task in the browser (the side panel's Stop
// button, or Esc on the page's mask). The extension writes it before it answers the dropped actions,
// so a runner that reads one of those answers already finds the cancel; the runner ends the task
// with no further model call or action and records it as cancelled.

export const TASK_CANCEL_SCHEMA = "browser.task.cancel.v1";
export const TASK_CANCEL_TAG = "browser:task-cancel";

export const taskCancelContextSchema = z.looseObject({
  session_id: z.string().min(1).max(200).describe("The agent session (session:<id> tag) that was stopped"),
  /** The task: its agent and the breadcrumb that started it (the `task.root` of its actions). */
  agent_id: z.string().min(1).max(200).optional(),
  root: z.looseObject({ id: z.string().min(1).max(200), version: z.number().int().min(1) }).optional(),
  extension_id: z.string().min(1).max(200).optional(),
  reason: z.string().max(500).describe("Why, in words: e.g. the user pressed Stop in the side panel"),
  /** Request ids of the actions dropped before they ran (each also gets a `cancelled` result). */
  dropped: z.array(z.string().min(1).max(200)).max(1000).default([]),
});
export type TaskCancelContext = z.infer<typeof taskCancelContextSchema>;
