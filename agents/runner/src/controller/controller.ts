import { TASK_LIMITS, type Pcd, type TaskSkill } from "@crumbs/schemas";
import { parseGoal, type Goal } from "./goal.ts";
import { judgePage } from "./predicates.ts";
import { CONFIDENT, ambiguous, expectationMet, rankAnswers, type QueryAnswer, type SkillPlan } from "./skills.ts";
import { clickCandidate, exploreStep, nextHref, recordNode, visitNext } from "./explore.ts";
import { askModel } from "./model-fallback.ts";
import { adopt, planSkill, runNext, type RunStep } from "./plan.ts";
import { PERCEIVE, clip, emit, finish, goalOf, pcdOf, pendingSteps, record, summarise, updateProgress } from "./task-state.ts";
import type { ControlledTask, ControllerConfig, Emit, Next, Outcome, TaskIds } from "./types.ts";

// The task controller: pure logic, no IO, the clock passed in. It keeps a `browser.task.v1` context
// current and says what to do next, one browser call at a time:
//
//   start  -> perceive (a snapshot with the page capability view)
//   perceive -> judge the page by the goal predicates, then
//       goal page:            plan the goal's skill (executing)
//       a login form:         plan the login skill first (executing)
//       a skill fits:         plan it (executing)
//       otherwise:            explore: beam search over the page's navigation (exploring)
//       nothing left:         ask the model (at most `maxModelCalls` times), or fail
//   each result -> record the step, run the plan's next step; a `verify` step perceives and checks
//
// The IO side (run-task.ts) writes each call as a browser.action.v1, feeds its result back here and
// writes the task breadcrumb after every change, so any runner replica can take the next step.
//
// This file holds the loop (start, think, advance, decide, cancel); its parts live beside it:
// types.ts (the shapes), task-state.ts (calls, step records, progress, the end), plan.ts (skills'
// plans and their steps), explore.ts (the beam search and the site graph), model-fallback.ts (the
// model and the scout).

export function startTask(ids: TaskIds, goalText: string, now: Date): { task: ControlledTask; next: Next } {
  const goal = parseGoal(goalText, now);
  const at = now.toISOString();
  const task: ControlledTask = {
    ...ids,
    goal: goalText.slice(0, TASK_LIMITS.goal) || "(no goal given)",
    goal_predicates: goal.predicates,
    status: "planning",
    progress: 0,
    plan: [],
    history: [],
    slots: goal.slots,
    model_calls: 0,
    skills_used: [],
    started_at: at,
    updated_at: at,
    controller: { calls: 0, pcd_version: 0, failures: 0, plans: 0, aux: {} },
  };
  return { task, next: emit(task, { call: PERCEIVE, purpose: "perceive", selector: "the page" }) };
}

/** After a perceive: judge the page and decide. */
function think(task: ControlledTask, pcd: Pcd, config: ControllerConfig, goal: Goal, now: Date): Next {
  const s = task.controller;
  const judged = judgePage(pcd, task.goal_predicates);
  s.at_goal = judged.score >= 1;
  const enabled = (n: TaskSkill) => config.skills.has(n);
  if (s.explore) recordNode(task, pcd, judged.score);
  const choose = (plan: SkillPlan | undefined): Next | undefined => {
    if (!plan) return undefined;
    adopt(task, plan);
    if (plan.skill === "login") s.login_done = true;
    task.status = "executing";
    return runNext(task, goal, now);
  };
  const goalTab = s.explore?.at !== undefined ? s.explore.tabs?.[s.explore.at] : undefined;
  if (s.at_goal && config.tabs && s.explore && !s.explore.won && goalTab !== undefined) {
    // The winner is kept: its tab becomes the task's current tab, and the page is read there again.
    s.explore.won = true;
    delete s.explore.tabs![s.explore.at!];
    task.status = "exploring";
    return emit(task, { call: { action: "tab_switch", params: { tab_id: goalTab }, risk: "low" }, purpose: "explore-win", selector: `tab ${goalTab}`, tab_id: goalTab });
  }
  if (s.at_goal) {
    if (goal.intent === "navigate") return finish(task, "succeeded", `Reached ${pcd.title || pcd.url}.`, now);
    if (enabled(goal.finalSkill)) {
      const chosen = choose(planSkill(task, goal.finalSkill, pcd, goal, CONFIDENT));
      if (chosen) return chosen;
    }
    return askModel(task, pcd, config, now, "no skill fits the goal page");
  }
  if (enabled("login") && !s.login_done && goal.intent !== "login") {
    const chosen = choose(planSkill(task, "login", pcd, goal, 0.85));
    if (chosen) return chosen;
  }
  if (enabled(goal.finalSkill)) {
    const chosen = choose(planSkill(task, goal.finalSkill, pcd, goal, CONFIDENT));
    if (chosen) return chosen;
  }
  if (enabled("navigate_menu") && !s.explore) {
    const chosen = choose(planSkill(task, "navigate_menu", pcd, goal, CONFIDENT));
    if (chosen) return chosen;
  }
  return exploreStep(task, pcd, config, goal, now, judged.score);
}

/** A browser result for the pending call: record it and decide the next call. */
export function advance(task: ControlledTask, outcome: Outcome, config: ControllerConfig, now: Date): Next {
  const s = task.controller;
  const pending = s.pending;
  if (!pending) return { kind: "done", status: task.status === "succeeded" ? "succeeded" : "failed", message: task.message ?? "the task has no step in flight" };
  delete s.pending;
  const goal = goalOf(task, now);
  task.updated_at = now.toISOString();
  if (outcome.observation?.url) s.url = outcome.observation.url;
  const perceived = pending.call.action === "snapshot" && outcome.ok ? pcdOf(outcome.data) : undefined;
  if (perceived) {
    s.pcd_version++;
    s.url = perceived.url;
  }
  const observation = perceived ? summarise(perceived) : outcome.observation ? `${outcome.observation.title} at ${outcome.observation.url}${outcome.observation.url_changed ? " (new page)" : ""}` : undefined;
  record(task, pending, outcome, observation);
  const next = decide(task, pending, outcome, perceived, config, goal, now);
  if (next.kind === "act" && s.calls > config.maxCalls) {
    delete s.pending;
    return finish(task, "failed", `Stopped after ${config.maxCalls} browser steps without reaching the goal.`, now);
  }
  if (next.kind === "done" && task.status !== next.status) return finish(task, next.status, next.message, now);
  updateProgress(task);
  if (next.kind === "done" && next.status === "succeeded") task.progress = 1;
  return next;
}

function decide(task: ControlledTask, pending: Emit, o: Outcome, pcd: Pcd | undefined, config: ControllerConfig, goal: Goal, now: Date): Next {
  const s = task.controller;
  const step = pending.step_id ? (task.plan.find((p) => p.id === pending.step_id) as RunStep | undefined) : undefined;
  if (!o.ok && o.code === "blocked_by_policy" && /declined/i.test(o.message ?? "")) {
    if (step) step.status = "failed";
    return finish(task, "failed", `You declined: ${step?.label ?? pending.call.action}. Nothing more was done.`, now);
  }
  switch (pending.purpose) {
    case "perceive":
    case "model":
    case "explore-arrive": {
      if (!pcd) return finish(task, "failed", `The page could not be read: ${o.message ?? "no capability view in the snapshot"}`, now);
      if (pending.purpose === "model") return askModel(task, pcd, config, now, "the controller asked for help");
      return think(task, pcd, config, goal, now);
    }
    case "verify": {
      if (!step) return finish(task, "failed", "a verify step went missing", now);
      const expect = s.aux[step.id]?.expect;
      const met = pcd && expect ? expectationMet(expect, pcd) : !!pcd;
      step.status = met ? "done" : "failed";
      for (const p of task.plan) if (p.status === "running" && p.call === "confirm") p.status = "done";
      if (!met) {
        s.failures++;
        if (s.failures > 2 || !pcd) return finish(task, "failed", `The step did not have its effect: ${step.label}.`, now);
        // Not what the skill expected: judge the page as it is and go on from there.
        for (const p of task.plan) if (p.status === "pending") p.status = "skipped";
        return think(task, pcd, config, goal, now);
      }
      if (pcd) {
        s.at_goal = s.at_goal || judgePage(pcd, task.goal_predicates).score >= 1;
        // A finished plan that is not the goal's: think again on the page it led to.
        if (!pendingSteps(task).length && !(s.last_plan_skill === goal.finalSkill && !s.last_plan_partial && s.at_goal)) return think(task, pcd, config, goal, now);
      }
      return runNext(task, goal, now);
    }
    case "plan": {
      if (!step) return finish(task, "failed", "a plan step went missing", now);
      if (!o.ok) {
        const alt = step.alternatives?.shift();
        const ref = alt ? /^ref ([A-Za-z0-9_:-]+)/.exec(alt)?.[1] : undefined;
        if (ref) {
          step.params = { ...(step.params ?? {}), ref };
          return emit(task, { step_id: step.id, ...(step.skill ? { skill: step.skill } : {}), call: { ...pending.call, params: step.params }, purpose: "plan", selector: `ref ${ref}` });
        }
        step.status = "failed";
        s.failures++;
        if (s.failures > 2) return finish(task, "failed", `${step.label} failed: ${o.message ?? o.code ?? "error"}`, now);
        for (const p of task.plan) if (p.status === "pending" || p.status === "running") p.status = "skipped";
        task.status = "planning";
        return emit(task, { call: PERCEIVE, purpose: "perceive", selector: "the page" });
      }
      step.status = "done";
      let answers: QueryAnswer[] | undefined;
      if (step.call === "query") {
        const raw = ((o.data as { results?: QueryAnswer[] } | undefined)?.results ?? []).filter((a) => typeof a?.ref === "string");
        answers = rankAnswers(raw, goal.itemWords, goal.verb);
        const bound = pendingSteps(task)[0];
        if (config.scout && bound && answers.length && ambiguous(answers, goal.itemWords, goal.verb) && (task.model_calls ?? 0) < config.maxModelCalls) {
          task.message = clip(`Asking the scout which element is meant for: ${bound.label}`, TASK_LIMITS.text);
          s.scout = { step: bound.id, answers: answers.slice(0, 10) };
          return { kind: "scout", step: bound.label, answers: s.scout.answers };
        }
      }
      for (const p of task.plan) if (p.status === "running" && p.call === "confirm") p.status = "done";
      return runNext(task, goal, now, answers);
    }
    case "explore-tabs": {
      const ex = s.explore!;
      const tabs = ((o.data as { tabs?: Array<{ tab_id?: number; active?: boolean }> } | undefined)?.tabs ?? []).filter((t) => typeof t.tab_id === "number");
      ex.main = (tabs.find((t) => t.active) ?? tabs[0])?.tab_id ?? -1;
      return nextHref(task, config, now);
    }
    case "explore-href": {
      const ex = s.explore!;
      const c = ex.frontier.find((f) => f.node === ex.reading);
      delete ex.reading;
      const href = (o.data as { value?: unknown } | undefined)?.value;
      const parent = task.site_graph?.nodes.find((n) => n.id === c?.parent);
      let url: string | undefined;
      try {
        url = o.ok && typeof href === "string" && parent ? new URL(href, parent.url).href : undefined;
      } catch {
        url = undefined;
      }
      if (c && url && /^https?:/.test(url)) c.url = url.split("#")[0];
      return nextHref(task, config, now);
    }
    case "explore-close":
      return visitNext(task, config, now);
    case "explore-open": {
      const ex = s.explore!;
      const tab = (o.data as { tab_id?: unknown } | undefined)?.tab_id;
      if (!o.ok || typeof tab !== "number" || !ex.target) {
        const n = task.site_graph?.nodes.find((x) => x.id === ex.target?.node);
        if (n) n.state = "pruned";
        delete ex.target;
        return visitNext(task, config, now);
      }
      ex.tabs = { ...(ex.tabs ?? {}), [ex.target.node]: tab };
      return emit(task, { call: PERCEIVE, purpose: "explore-arrive", selector: "the page", tab_id: tab });
    }
    case "explore-win":
      if (!o.ok) return finish(task, "failed", `The goal page's tab could not be shown: ${o.message ?? o.code ?? "error"}`, now);
      return emit(task, { call: PERCEIVE, purpose: "perceive", selector: "the page" });
    case "explore-return": {
      const t = s.explore?.target;
      if (!t) return emit(task, { call: PERCEIVE, purpose: "perceive", selector: "the page" });
      return clickCandidate(task, t);
    }
    case "explore-click": {
      const ex = s.explore!;
      if (!o.ok) {
        const n = task.site_graph?.nodes.find((x) => x.id === ex.target?.node);
        if (n) n.state = "pruned";
        delete ex.target;
        return visitNext(task, config, now);
      }
      return emit(task, { call: PERCEIVE, purpose: "explore-arrive", selector: "the page" });
    }
  }
}

/** The task ended from outside (the user stopped it). */
export function cancelTask(task: ControlledTask, now: Date): void {
  task.status = "cancelled";
  task.message = "You stopped this task in the browser.";
  delete task.controller.pending;
  for (const p of task.plan) if (p.status === "pending" || p.status === "running") p.status = "skipped";
  task.updated_at = now.toISOString();
}
