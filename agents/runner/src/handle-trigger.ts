import { ApiResponseError, type BreadcrumbEvent } from "@crumbs/agent-sdk";
import type { Agent } from "./agent-def.ts";
import { runStep, type StepDeps } from "./run-step.ts";
import { controllerConfigOf, startControlledTask } from "./controller/run-task.ts";

/** An event matched an agent's subscription: start a task with it. */
export async function handleTrigger(deps: StepDeps, agent: Agent, event: BreadcrumbEvent): Promise<void> {
  if (event.type === "breadcrumb.deleted") return;
  // An agent never answers its own outputs, or a broad selector would loop forever.
  if (event.tags.includes(`agent:${agent.def.agent_id}`)) return;
  const trigger = event.breadcrumb;
  try {
    // An agent that opted into skills: the task controller drives the task, the model is its fallback.
    const controlled = controllerConfigOf(agent.def);
    if (controlled) return await startControlledTask(deps, agent, trigger, controlled);
    await runStep(deps, {
      agent,
      trigger,
      root: { id: trigger.id, version: trigger.version },
      event: event.type.replace("breadcrumb.", ""),
      step: 1,
      steps: [],
    });
  } catch (err) {
    // The trigger was deleted meanwhile: nothing left to answer.
    if (err instanceof ApiResponseError && err.status === 404) return;
    throw err;
  }
}
