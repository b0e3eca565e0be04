import { TASK_LIMITS, type Pcd, type PlanStep, type SlotBinding, type TaskSkill } from "@crumbs/schemas";
import type { Goal } from "./goal.ts";
import { SKILLS, type DraftStep, type QueryAnswer, type SkillPlan } from "./skills.ts";
import { PERCEIVE, clip, describeTarget, emit, finish, pendingSteps } from "./task-state.ts";
import type { ControlledTask, Next, Risk } from "./types.ts";

// Planning: a skill's plan is bound to the page and adopted into the task's plan, and its steps run
// one at a time (a confirmation goes out as the next step marked high risk, a click bound to the
// query before it takes the best answer, the rest become its alternatives).

/** Adds a skill's plan to the task: ids, statuses, slots; older finished steps make room. */
export function adopt(task: ControlledTask, plan: SkillPlan): void {
  const s = task.controller;
  s.plans++;
  s.last_plan_skill = plan.skill;
  s.last_plan_partial = plan.final === false;
  const steps: PlanStep[] = plan.steps.map((d: DraftStep, i) => ({
    id: `p${s.plans}s${i + 1}`,
    skill: plan.skill,
    call: d.call,
    ...(d.params ? { params: d.params } : {}),
    label: clip(d.label, TASK_LIMITS.label),
    status: "pending" as const,
    ...(d.risk ? { risk: d.risk } : {}),
    ...(d.alternatives?.length ? { alternatives: d.alternatives } : {}),
  }));
  plan.steps.forEach((d, i) => {
    if (d.expect || d.bind) s.aux[`p${s.plans}s${i + 1}`] = { ...(d.expect ? { expect: d.expect } : {}), ...(d.bind ? { bind: d.bind } : {}) };
  });
  // Only the steps still in the plan keep their notes.
  const live = new Set([...task.plan.map((p) => p.id), ...steps.map((p) => p.id)]);
  for (const id of Object.keys(s.aux)) if (!live.has(id)) delete s.aux[id];
  // Steps of an earlier plan that never ran are dropped: the new plan replaces them.
  task.plan = task.plan.filter((p) => p.status !== "pending").concat(steps);
  while (task.plan.length > TASK_LIMITS.planSteps) task.plan.shift();
  task.subgoal = clip(plan.subgoal, TASK_LIMITS.goal);
  task.slots = { ...task.slots, ...plan.slots };
  while (Object.keys(task.slots).length > TASK_LIMITS.slots) delete task.slots[Object.keys(task.slots)[0]!];
  if (!task.skills_used?.includes(plan.skill)) task.skills_used = [...(task.skills_used ?? []), plan.skill].slice(-30);
}

export type RunStep = PlanStep;

/** Runs the plan's next step; a finished plan means perceive and think again, or the end. */
export function runNext(task: ControlledTask, goal: Goal, now: Date, answers?: QueryAnswer[]): Next {
  const step = pendingSteps(task)[0] as RunStep | undefined;
  if (!step) {
    if (task.controller.last_plan_skill === goal.finalSkill && !task.controller.last_plan_partial && task.controller.at_goal) {
      return finish(task, "succeeded", `Done: ${task.subgoal ?? task.goal}.`, now);
    }
    task.status = "planning";
    return emit(task, { call: PERCEIVE, purpose: "perceive", selector: "the page" });
  }
  if (step.call === "confirm") {
    // The confirmation is the extension's: the next step goes out marked high risk, the browser asks
    // the user, and the task waits for them.
    step.status = "running";
    task.status = "awaiting_user";
    task.message = step.label;
    const next = pendingSteps(task)[1] as RunStep | undefined;
    if (!next) return finish(task, "failed", "a confirmation with nothing after it", now);
    return runStep(task, next, answers, "high");
  }
  task.status = "executing";
  delete task.message;
  return runStep(task, step, answers);
}

function runStep(task: ControlledTask, step: RunStep, answers: QueryAnswer[] | undefined, risk?: Risk): Next {
  step.status = "running";
  if (step.call === "verify") return emit(task, { step_id: step.id, ...(step.skill ? { skill: step.skill } : {}), call: PERCEIVE, purpose: "verify", selector: "the page" });
  let params = { ...(step.params ?? {}) };
  if (task.controller.aux[step.id]?.bind === "query") {
    const [best, ...rest] = answers ?? [];
    if (!best) {
      step.status = "failed";
      return { kind: "done", status: "failed", message: "the page has no element for this step" };
    }
    params = { ref: best.ref };
    step.params = params;
    step.alternatives = rest.slice(0, TASK_LIMITS.alternatives).map((a) => `ref ${a.ref}: ${clip(a.name, 150)}`);
  }
  return emit(task, {
    step_id: step.id,
    ...(step.skill ? { skill: step.skill } : {}),
    call: { action: step.call, params, risk: risk ?? step.risk ?? "medium" },
    purpose: "plan",
    ...(describeTarget(params) ? { selector: describeTarget(params)! } : {}),
  });
}

export function planSkill(task: ControlledTask, name: TaskSkill, pcd: Pcd, goal: Goal, minConfidence: number): SkillPlan | undefined {
  const plan = SKILLS[name]({ pcd, goal, slots: task.slots as Record<string, SlotBinding> });
  return plan && plan.confidence >= minConfidence ? plan : undefined;
}
