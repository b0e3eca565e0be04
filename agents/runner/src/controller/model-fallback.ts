import { TASK_LIMITS, type Pcd, type SlotBinding, type TaskSkill } from "@crumbs/schemas";
import { words } from "./goal.ts";
import { adopt, runNext } from "./plan.ts";
import { SKILLS, expectationMet } from "./skills.ts";
import { PERCEIVE, clip, describeTarget, emit, finish, goalOf, updateProgress } from "./task-state.ts";
import type { ControlledTask, ControllerConfig, Next, Risk } from "./types.ts";

// The model, where skills and exploration found no way: asking it (within the task's model-call
// budget), applying its choice, and applying the scout's ranking of an ambiguous query's answers.

export function askModel(task: ControlledTask, pcd: Pcd | undefined, config: ControllerConfig, now: Date, why: string): Next {
  if ((task.model_calls ?? 0) >= config.maxModelCalls) {
    return finish(task, "failed", `Could not do it: ${why}, and the task may not ask the model again (${task.model_calls} of ${config.maxModelCalls} model calls used).`, now);
  }
  if (!pcd) {
    // The model decides on the page as it is now.
    task.status = "planning";
    return emit(task, { call: PERCEIVE, purpose: "model", selector: "the page" });
  }
  task.status = "planning";
  task.message = clip(`Asking the model: ${why}`, TASK_LIMITS.text);
  return { kind: "model", pcd };
}

/** What the model chose when asked: a skill by name (with slots), one browser action, or a final text. */
export type ModelChoice =
  | { kind: "skill"; skill: TaskSkill; slots: Record<string, string> }
  | { kind: "action"; action: string; params: Record<string, unknown> }
  | { kind: "text"; content: string };

export function applyModelChoice(task: ControlledTask, pcd: Pcd, choice: ModelChoice, config: ControllerConfig, now: Date): Next {
  const goal = goalOf(task, now);
  task.model_calls = (task.model_calls ?? 0) + 1;
  task.updated_at = now.toISOString();
  delete task.message;
  if (choice.kind === "text") {
    // The model's last word is a success only where the page shows it: a goal page, or the item the goal names.
    const shown = task.controller.at_goal || (goal.itemWords.length > 0 && expectationMet({ kind: "item_open", from_url: "", words: goal.itemWords.flatMap((w) => words(w)) }, pcd));
    return finish(task, shown ? "succeeded" : "blocked", choice.content || "The model gave no answer.", now);
  }
  if (choice.kind === "skill") {
    for (const [k, v] of Object.entries(choice.slots)) {
      if (/^[A-Za-z0-9_.:-]{1,64}$/.test(k)) task.slots[k] = { value: String(v).slice(0, TASK_LIMITS.text), source: "model" };
    }
    const plan = config.skills.has(choice.skill) ? SKILLS[choice.skill]({ pcd, goal, slots: task.slots as Record<string, SlotBinding> }) : undefined;
    if (!plan) return askModel(task, pcd, config, now, `the skill ${choice.skill} does not fit this page`);
    adopt(task, plan);
    if (plan.skill === "login") task.controller.login_done = true;
    const next = runNext(task, goal, now);
    updateProgress(task);
    return next;
  }
  const label = `The model's choice: ${choice.action}${describeTarget(choice.params) ? ` ${describeTarget(choice.params)}` : ""}`;
  const s = task.controller;
  s.plans++;
  // A step the model chose is its own, not a skill's: after it the controller perceives and thinks again.
  s.last_plan_skill = undefined;
  task.plan = task.plan.filter((p) => p.status !== "pending");
  task.plan.push({ id: `p${s.plans}s1`, call: choice.action, params: choice.params, label: clip(label, TASK_LIMITS.label), status: "pending", risk: choice.action === "submit" ? "high" : "medium" });
  while (task.plan.length > TASK_LIMITS.planSteps) task.plan.shift();
  const next = runNext(task, goal, now);
  updateProgress(task);
  return next;
}

/** One element the scout proposes: its ref (one of the answers it was shown), how sure, how risky, why. */
export interface ScoutCandidate {
  ref: string;
  confidence: number;
  risk: Risk;
  why: string;
}

/** At most this many candidates are taken from the scout. */
export const MAX_SCOUT_CANDIDATES = 5;

/**
 * The scout's ranked candidates for the step it was asked about: the best is bound, the rest become
 * the step's alternatives. Refs it was not shown are dropped; with none left the controller's own
 * ranking stands. Counts as a model call.
 */
export function applyScout(task: ControlledTask, candidates: readonly ScoutCandidate[], now: Date): Next {
  const goal = goalOf(task, now);
  const s = task.controller;
  const asked = s.scout;
  delete s.scout;
  delete task.message;
  task.model_calls = (task.model_calls ?? 0) + 1;
  task.updated_at = now.toISOString();
  const shown = new Map((asked?.answers ?? []).map((a) => [a.ref, a]));
  const picked = [...candidates]
    .filter((c) => shown.has(c.ref))
    .sort((a, b) => b.confidence - a.confidence)
    .slice(0, MAX_SCOUT_CANDIDATES);
  const best = picked[0];
  if (best && asked) {
    task.slots.item = { value: clip(shown.get(best.ref)!.name, TASK_LIMITS.text), source: "scout", ref: best.ref, confidence: Math.max(0, Math.min(1, best.confidence)) };
  }
  const answers = picked.length ? [...picked.map((c) => shown.get(c.ref)!), ...(asked?.answers ?? []).filter((a) => !picked.some((c) => c.ref === a.ref))] : (asked?.answers ?? []);
  for (const p of task.plan) if (p.status === "running" && p.call === "confirm") p.status = "done";
  const next = runNext(task, goal, now, answers);
  updateProgress(task);
  return next;
}
