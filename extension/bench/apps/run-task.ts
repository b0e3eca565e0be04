import { estimateTokens } from "@crumbs/schemas/tokens";
import { decide, newMemory, type Action } from "./policy.ts";
import type { Task } from "./tasks.ts";

// One task driven by the policy against one snapshot source: read, decide, act by ref, until every step
// has acted or the policy has nothing left to try. The source and the act-by-ref function are all that
// differ between the extension and Playwright.

export interface Eyes {
  snapshot(): Promise<string>;
  /** Runs the action; its error message when it failed. */
  act(action: Action): Promise<string | undefined>;
}

export interface TaskResult {
  id: string;
  app: string;
  done: boolean;
  /** Actions sent (scrolls and hovers included). */
  actions: number;
  reads: number;
  /** estimateTokens of every snapshot read. */
  tokens: number;
  /** Why it stopped short, or the check that did not hold. */
  failure?: string;
}

/** Reads per step at most: the target, a few scrolls of its pane, a hover, a retry after a failed action. */
const MAX_READS_PER_STEP = 12;

export async function runTask(eyes: Eyes, task: Task, isDone: () => Promise<boolean>): Promise<TaskResult> {
  const result: TaskResult = { id: task.id, app: task.app, done: false, actions: 0, reads: 0, tokens: 0 };
  for (const [i, step] of task.steps.entries()) {
    const memory = newMemory();
    let acted = false;
    const errors: string[] = [];
    for (let read = 0; read < MAX_READS_PER_STEP && !acted; read++) {
      const text = await eyes.snapshot();
      result.reads++;
      result.tokens += estimateTokens(text);
      const action = decide(text, step, memory);
      if (!action) break;
      result.actions++;
      const error = await eyes.act(action);
      if (action.type === "scroll" || action.type === "hover") continue;
      if (error) {
        memory.failed.add(action.ref);
        errors.push(`${action.type} ${action.ref}: ${error.split("\n")[0]}`);
      } else acted = true;
    }
    if (!acted) {
      result.failure = `step ${i + 1} (${step.act} ${step.role?.join("/") ?? "item"} ${step.name?.[0] ?? step.anchor ?? ""}): ${errors.join("; ") || "no target in the snapshot"}`;
      return result;
    }
  }
  result.done = await isDone();
  if (!result.done) result.failure = "every step acted, but the page does not show the goal reached";
  return result;
}
