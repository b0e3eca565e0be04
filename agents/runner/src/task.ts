import { z } from "zod";

/**
 * The loop state an agent's browser actions carry in their context. A result
 * that answers one of them lets any runner replica rebuild the whole task from
 * breadcrumbs: nothing lives in a runner's memory between steps.
 */
export const taskSchema = z.object({
  agent_id: z.string(),
  root: z.object({ id: z.string(), version: z.number().int() }),
  session_id: z.string(),
  step: z.number().int().min(1),
  tool_call_id: z.string(),
  index: z.number().int().min(0),
  /** The runner's step limit, for people watching the task (the side panel's "step n of max"). */
  max_steps: z.number().int().min(1).optional(),
  /** The browser.task.v1 breadcrumb of a task the controller drives (docs/agents.md, "The task controller"). */
  task_id: z.string().optional(),
});
export type Task = z.infer<typeof taskSchema>;

export const actionResultRefSchema = z.looseObject({
  request_id: z.string(),
  action_id: z.string().optional(),
  status: z.string(),
  code: z.string().optional(),
});

/** Idempotency key of output `n` (from 0) of a task's `step` (from 1). */
export function outputKey(
  agentId: string,
  root: { id: string; version: number },
  step: number,
  n: number,
): string {
  // The first output of the first step carries exactly the contract's key, `<agent_id>:<id>:<version>`
  // (docs/agents.md, "How the runner delivers"). Further outputs and later steps add their position.
  const base = `${agentId}:${root.id}:${root.version}`;
  if (step === 1) return n === 0 ? base : `${base}:${n}`;
  return `${base}:s${step}:${n}`;
}

/**
 * A browser result as the model reads it in a tool message: with `rebound` and the new `ref` when the
 * page had re-rendered the element, and the `candidates` of a stale ref (docs/agents.md, "Perception").
 */
export function resultText(result: Record<string, unknown>): string {
  const { status, code, message, data, rebound, ref, candidates, observation } = result;
  // An image (capture_candidates' data URLs, up to 512k characters) is no text for the model: the tool message says it is there.
  return JSON.stringify({ status, code, message, data, rebound, ref, candidates, observation }, (_key, v: unknown) =>
    typeof v === "string" && v.startsWith("data:image/") ? `[image, ${v.length} characters, not shown as text]` : v,
  );
}
