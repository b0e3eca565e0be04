import { type Breadcrumb, type BreadcrumbEvent, type CrumbsHttp } from "@crumbs/agent-sdk";
import { readIfPresent } from "./read-if-present.ts";
import type { Agent } from "./agent-def.ts";
import type { ToolStep } from "./prompt.ts";
import { actionResultRefSchema, resultText, taskSchema, type Task } from "./task.ts";
import { isTaskCancelled, recordCancelled } from "./cancel.ts";
import { tagValue } from "./context-selectors.ts";
import { runStep, type StepDeps } from "./run-step.ts";
import { toolNameFor, type BrowserAction } from "./llm/browser-tools.ts";
import { continueControlledTask } from "./controller/run-task.ts";

export type FindAgent = (owner: string, agentId: string) => Agent | undefined;

/**
 * A browser.action.result.v1 arrived. When it completes the last step of a
 * task an agent started, rebuild that task from its breadcrumbs and take the
 * next step. Results of actions no agent here wrote are ignored.
 */
export async function handleActionResult(
  deps: StepDeps,
  findAgent: FindAgent,
  event: BreadcrumbEvent,
): Promise<void> {
  if (event.type !== "breadcrumb.created") return;
  const result = actionResultRefSchema.safeParse(event.breadcrumb.context);
  if (!result.success || !result.data.action_id) return;
  const action = await readIfPresent(deps.http, result.data.action_id);
  if (!action || action.schema_name !== "browser.action.v1") return;
  const parsedTask = taskSchema.safeParse(action.context.task);
  if (!parsedTask.success) return;
  const task = parsedTask.data;
  const agent = findAgent(action.owner, task.agent_id);
  if (!agent) return;
  // A task the controller drives: it records the result in the task and decides the next step.
  if (task.task_id) return continueControlledTask(deps, agent, action, event.breadcrumb, task);
  // Stopped by the user: no further step. A `cancelled` result says so even before the cancel
  // breadcrumb is readable.
  const ref = { agentId: task.agent_id, root: task.root, session: task.session_id };
  if (result.data.code === "cancelled" || (await isTaskCancelled(deps.sessions, ref, action.created_at))) {
    await recordCancelled(deps.http, ref, tagValue(action, "extension"));
    return;
  }

  const actions = await actionsOfTask(deps.http, task);
  const latestStep = Math.max(...actions.map((a) => taskOf(a).step));
  if (task.step !== latestStep) return;
  const results = await resultsFor(deps.http, actions);
  const current = actions.filter((a) => taskOf(a).step === latestStep);
  if (current.some((a) => !results.has(requestIdOf(a)))) return; // wait for the other results of this step

  const trigger = await readIfPresent(deps.http, task.root.id);
  if (!trigger) return;
  const steps: ToolStep[] = [];
  for (let s = 1; s <= latestStep; s++) {
    const ofStep = actions
      .filter((a) => taskOf(a).step === s)
      .sort((a, b) => taskOf(a).index - taskOf(b).index);
    if (!ofStep.length) continue;
    steps.push({
      calls: ofStep.map((a) => ({
        toolCallId: taskOf(a).tool_call_id,
        name: toolNameFor(a.context.action as BrowserAction),
        arguments: (a.context.params ?? {}) as Record<string, unknown>,
      })),
      results: Object.fromEntries(
        ofStep.map((a) => [taskOf(a).tool_call_id, results.get(requestIdOf(a)) ?? "no result"]),
      ),
    });
  }
  await runStep(deps, { agent, trigger, root: task.root, event: "created", step: latestStep + 1, steps });
}

function taskOf(action: Breadcrumb): Task {
  return taskSchema.parse(action.context.task);
}

function requestIdOf(action: Breadcrumb): string {
  return String(action.context.request_id);
}


async function actionsOfTask(http: CrumbsHttp, task: Task): Promise<Breadcrumb[]> {
  const out: Breadcrumb[] = [];
  const selector = {
    schema_name: "browser.action.v1",
    context_match: [
      { path: "$.task.root.id", op: "eq", value: task.root.id },
      { path: "$.task.agent_id", op: "eq", value: task.agent_id },
    ],
  };
  for await (const b of http.listAll({ selector })) {
    const t = taskSchema.safeParse(b.context.task);
    if (t.success && t.data.root.version === task.root.version) out.push(b);
  }
  return out;
}

/** Result text per request id, as the model will read it (the first result wins). */
async function resultsFor(http: CrumbsHttp, actions: Breadcrumb[]): Promise<Map<string, string>> {
  const ids = actions.map(requestIdOf);
  const selector = {
    schema_name: "browser.action.result.v1",
    context_match: [{ path: "$.request_id", op: "in", value: ids }],
  };
  const out = new Map<string, string>();
  for await (const r of http.listAll({ selector })) {
    const id = String(r.context.request_id);
    if (out.has(id)) continue;
    out.set(id, resultText(r.context));
  }
  return out;
}
