import * as z from "./zod-mini.ts";

// browser.task.cancel.v1: the user stopped an agent's task in the browser (the side panel's Stop
// button, or Esc on the page's mask). The extension writes it before it answers the dropped actions,
// so a runner that reads one of those answers already finds the cancel; the runner ends the task
// with no further model call or action and records it as cancelled. Written with zod/mini
// (./zod-mini.ts): the extension bundles it.

export const TASK_CANCEL_SCHEMA = "browser.task.cancel.v1";
export const TASK_CANCEL_TAG = "browser:task-cancel";

const id = () => z.string().check(z.minLength(1), z.maxLength(200));

export const taskCancelContextSchema = z.looseObject({
  session_id: id().check(z.describe("The agent session (session:<id> tag) that was stopped")),
  /** The task: its agent and the breadcrumb that started it (the `task.root` of its actions). */
  agent_id: z.optional(id()),
  root: z.optional(z.looseObject({ id: id(), version: z.number().check(z.int(), z.gte(1)) })),
  extension_id: z.optional(id()),
  reason: z.string().check(z.maxLength(500), z.describe("Why, in words: e.g. the user pressed Stop in the side panel")),
  /** Request ids of the actions dropped before they ran (each also gets a `cancelled` result). */
  dropped: z._default(z.array(id()).check(z.maxLength(1000)), []),
});
export type TaskCancelContext = z.infer<typeof taskCancelContextSchema>;
