import {
  TASK_LIMITS,
  pcdSchema,
  type Pcd,
  type PlanStep,
  type SiteGraph,
  type SlotBinding,
  type StepRecord,
  type TaskContext,
  type TaskSkill,
  type TaskStatus,
} from "@crumbs/schemas";
import { parseGoal, relevance, words, type Goal } from "./goal.ts";
import { judgePage } from "./predicates.ts";
import { CONFIDENT, SKILLS, ambiguous, expectationMet, rankAnswers, type DraftStep, type Expectation, type QueryAnswer, type SkillPlan } from "./skills.ts";

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

export type Risk = "low" | "medium" | "high";

export interface ControllerConfig {
  skills: ReadonlySet<TaskSkill>;
  beam: number;
  depth: number;
  maxModelCalls: number;
  /** Browser calls one task may make: the controller's budget. */
  maxCalls: number;
  /** False: no exploration either, the model decides whenever no skill does (the bench's "skills off"). */
  explore?: boolean;
  /** Ask the scout (a read-only model call) when a query leaves the element to act on ambiguous. */
  scout?: boolean;
  /**
   * Explore in background tabs: each candidate's link is read (`get` href), opened with `tab_new`
   * inactive, perceived there and closed; the winner's tab is switched to. Off: navigate and go back
   * in the task's own tab.
   */
  tabs?: boolean;
}

export interface Call {
  action: string;
  params: Record<string, unknown>;
  risk?: Risk;
}

/** One browser call the IO side must write, numbered from 1 within the task. */
export interface Emit {
  step: number;
  step_id?: string;
  skill?: string;
  call: Call;
  /** The target as resolved, for the step record. */
  selector?: string;
  /** What this call is for, when not a plan step's: perceiving, or a move of exploration. */
  purpose:
    | "perceive"
    | "verify"
    | "plan"
    | "explore-return"
    | "explore-click"
    | "explore-arrive"
    | "explore-tabs"
    | "explore-href"
    | "explore-open"
    | "explore-close"
    | "explore-win"
    | "model";
  /** The tab it runs on, when not the session's current one (exploring in background tabs). */
  tab_id?: number;
}

export interface Outcome {
  ok: boolean;
  code?: string;
  message?: string;
  data?: unknown;
  observation?: { url: string; title: string; url_changed: boolean };
  started_at: string;
  duration_ms: number;
  request_id?: string;
}

export type Next =
  | { kind: "act"; emit: Emit }
  | { kind: "model"; pcd: Pcd | undefined }
  /** Which of these answers is meant by the step? Read-only: the scout only ranks. */
  | { kind: "scout"; step: string; answers: QueryAnswer[] }
  | { kind: "done"; status: Extract<TaskStatus, "succeeded" | "failed" | "blocked">; message: string };

export interface Candidate {
  node: string;
  parent: string;
  label: string;
  role: string;
  depth: number;
  score: number;
  /** The link's address, read before it is opened in a background tab. */
  url?: string;
}

/** The controller's own bookkeeping, kept in the task context (`controller`) so any replica resumes it. */
export interface ControllerState {
  calls: number;
  pending?: Emit;
  pcd_version: number;
  url?: string;
  login_done?: boolean;
  failures: number;
  plans: number;
  /** The goal page was reached (its predicates scored 1). */
  at_goal?: boolean;
  /** A model's single step is in the plan: think again after it. */
  last_plan_skill?: string;
  /** The last plan only leads toward the goal's skill (checkout's way to the form): think again after it. */
  last_plan_partial?: boolean;
  explore?: {
    frontier: Candidate[];
    at?: string;
    target?: Candidate;
    visits: number;
    next_id: number;
    /** Background tabs: the task's own tab, each open node's tab, links whose href is still to read, the node whose tab closes next. */
    main?: number;
    tabs?: Record<string, number>;
    hrefs?: string[];
    reading?: string;
    closing?: string;
    won?: boolean;
  };
  /**
   * What a plan step needs beyond the contract's fields, by step id: a verify step's expectation, a
   * click bound to the query before it. Kept here because the contract's plan steps are strict.
   */
  aux: Record<string, { expect?: Expectation; bind?: "query" }>;
  /** The query answers the scout is asked about, for the step bound to them. */
  scout?: { step: string; answers: QueryAnswer[] };
}

export type ControlledTask = TaskContext & { controller: ControllerState };

export interface TaskIds {
  task_id: string;
  session_id: string;
  agent_id?: string;
  root?: { id: string; version: number };
}

const PERCEIVE: Call = { action: "snapshot", params: { pcd: true, max_tokens: 200 }, risk: "low" };

export function goalOf(task: TaskContext, now: Date): Goal {
  return parseGoal(task.goal, new Date(task.started_at || now.toISOString()));
}

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

function emit(task: ControlledTask, e: Omit<Emit, "step">): Next {
  const s = task.controller;
  s.calls++;
  s.pending = { ...e, step: s.calls };
  return { kind: "act", emit: s.pending };
}

function finish(task: ControlledTask, status: "succeeded" | "failed" | "blocked", message: string, now: Date): Next {
  task.status = status;
  task.message = message.slice(0, TASK_LIMITS.text);
  if (status === "succeeded") task.progress = 1;
  delete task.controller.pending;
  task.updated_at = now.toISOString();
  return { kind: "done", status, message: task.message };
}

/** Parses the page capability view out of a snapshot result. */
export function pcdOf(data: unknown): Pcd | undefined {
  const pcd = (data as { pcd?: unknown } | undefined)?.pcd;
  const parsed = pcdSchema.safeParse(pcd);
  return parsed.success ? parsed.data : undefined;
}

function describeTarget(params: Record<string, unknown>): string | undefined {
  if (typeof params.ref === "string") return `ref ${params.ref}`;
  const sel = params.selector as { role?: string; name?: string } | undefined;
  if (sel?.role) return `${sel.role} "${sel.name ?? ""}"`;
  if (typeof params.url === "string") return params.url;
  if (typeof params.query === "string") return `query "${params.query}"`;
  return undefined;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function record(task: ControlledTask, pending: Emit, o: Outcome, observation: string | undefined): void {
  const params = JSON.stringify(pending.call.params).length <= TASK_LIMITS.params ? pending.call.params : { omitted: "too long" };
  const r: StepRecord = {
    ...(pending.step_id ? { step_id: pending.step_id } : {}),
    ...(pending.skill ? { skill: pending.skill } : {}),
    call: { action: pending.call.action, params, ...(o.request_id ? { request_id: o.request_id } : {}) },
    ...(pending.selector ? { selector: clip(pending.selector, TASK_LIMITS.label) } : {}),
    started_at: o.started_at,
    duration_ms: Math.max(0, Math.round(o.duration_ms)),
    result: { ok: o.ok, ...(o.code ? { code: o.code } : {}), ...(o.message ? { message: clip(o.message, TASK_LIMITS.text) } : {}) },
    ...(observation ? { observation: clip(observation, TASK_LIMITS.text) } : {}),
    ...(o.observation?.url ? { url: clip(o.observation.url, TASK_LIMITS.url) } : {}),
    ...(task.controller.pcd_version ? { pcd_version: task.controller.pcd_version } : {}),
  };
  task.history.push(r);
  if (task.history.length > TASK_LIMITS.history) {
    const drop = task.history.length - TASK_LIMITS.history;
    task.history.splice(0, drop);
    task.history_dropped = (task.history_dropped ?? 0) + drop;
  }
}

function summarise(pcd: Pcd): string {
  const forms = pcd.forms.map((f) => f.purpose ?? "form").join(", ");
  const cols = pcd.collections.map((c) => `${c.label ?? c.itemRole ?? "list"} (${c.count})`).join(", ");
  return `${pcd.title} at ${pcd.url}; signed ${pcd.loginState}; ${pcd.actions.length} actions${forms ? `; forms: ${forms}` : ""}${cols ? `; lists: ${cols}` : ""}`;
}

/** Plan steps not yet run, in order. */
const pendingSteps = (task: TaskContext) => task.plan.filter((p) => p.status === "pending" || p.status === "running");

function updateProgress(task: ControlledTask): void {
  const done = task.plan.filter((p) => p.status === "done").length;
  const left = pendingSteps(task).length;
  const visits = task.controller.explore?.visits ?? 0;
  // Until the goal page is reached, about three more steps are ahead (reach it, act, verify).
  const ahead = task.controller.at_goal ? 0 : 3;
  const p = (done + visits * 0.5 + 1) / (done + left + visits * 0.5 + ahead + 2);
  task.progress = Math.max(task.progress, Math.min(0.95, Math.round(p * 100) / 100));
}

/** Adds a skill's plan to the task: ids, statuses, slots; older finished steps make room. */
function adopt(task: ControlledTask, plan: SkillPlan): void {
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

type RunStep = PlanStep;

/** Runs the plan's next step; a finished plan means perceive and think again, or the end. */
function runNext(task: ControlledTask, goal: Goal, now: Date, answers?: QueryAnswer[]): Next {
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

function planSkill(task: ControlledTask, name: TaskSkill, pcd: Pcd, goal: Goal, minConfidence: number): SkillPlan | undefined {
  const plan = SKILLS[name]({ pcd, goal, slots: task.slots as Record<string, SlotBinding> });
  return plan && plan.confidence >= minConfidence ? plan : undefined;
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

function graph(task: ControlledTask): SiteGraph {
  task.site_graph ??= { nodes: [], edges: [], recent_urls: [] };
  return task.site_graph;
}

/** The page just perceived while exploring becomes a node of the site graph. */
function recordNode(task: ControlledTask, pcd: Pcd, score: number): void {
  const ex = task.controller.explore!;
  const g = graph(task);
  g.recent_urls = [...g.recent_urls.filter((u) => u !== pcd.url), clip(pcd.url, TASK_LIMITS.url)].slice(-TASK_LIMITS.recentUrls);
  const t = ex.target;
  if (!t) return;
  delete ex.target;
  const seen = g.nodes.find((n) => n.url === pcd.url && n.state !== "frontier");
  const node = g.nodes.find((n) => n.id === t.node);
  if (seen && seen.id !== t.node) {
    // Another way to a page already seen: the edge goes there, the candidate adds nothing (its
    // background tab, if any, now stands for the page seen, and closes after it is read).
    if (ex.tabs?.[t.node] !== undefined) {
      ex.tabs[seen.id] = ex.tabs[t.node]!;
      delete ex.tabs[t.node];
    }
    g.nodes = g.nodes.filter((n) => n.id !== t.node);
    g.edges = g.edges.map((e) => (e.to === t.node ? { ...e, to: seen.id } : e));
    ex.at = seen.id;
    return;
  }
  if (node) Object.assign(node, { url: clip(pcd.url, TASK_LIMITS.url), title: clip(pcd.title, TASK_LIMITS.label), score, state: score >= 1 ? "goal" : "visited" });
  ex.at = t.node;
}

/**
 * One move of the beam search. The page at hand (a node) adds its navigation links to the frontier,
 * scored by how they relate to the goal; each depth keeps its `beam` best (the rest are pruned), and
 * the best candidate overall is visited next: back to its parent page if needed (`open`), click,
 * perceive. Bounded by depth, and by beam x depth visits.
 */
function exploreStep(task: ControlledTask, pcd: Pcd, config: ControllerConfig, goal: Goal, now: Date, score: number): Next {
  if (config.explore === false) return askModel(task, pcd, config, now, "no skill fits this page");
  const s = task.controller;
  task.status = "exploring";
  task.subgoal = `find the page for: ${goal.objectWords.join(" ") || task.goal}`.slice(0, TASK_LIMITS.goal);
  const g = graph(task);
  if (!s.explore) {
    s.explore = { frontier: [], visits: 0, next_id: 1, at: "n0" };
    g.nodes.push({ id: "n0", url: clip(pcd.url, TASK_LIMITS.url), title: clip(pcd.title, TASK_LIMITS.label), depth: 0, score, state: "visited" });
    g.recent_urls = [clip(pcd.url, TASK_LIMITS.url)];
  }
  const ex = s.explore;
  const here = g.nodes.find((n) => n.id === ex.at);
  if (here && here.depth < config.depth) {
    // A label already followed from here, or one that led to a page already judged, is not tried again.
    const judged = new Set(g.nodes.filter((n) => n.state === "visited" || n.state === "goal").map((n) => n.id));
    const tried = new Set(g.edges.filter((e) => e.from === here.id || judged.has(e.to)).map((e) => e.label));
    const links = pcd.actions
      .filter((a) => a.kind === "navigate" && !tried.has(a.label))
      .map((a) => ({ a, r: relevance(a.label, goal.objectWords) }))
      .filter((x) => x.r > 0)
      .sort((x, y) => y.r - x.r)
      .slice(0, config.beam);
    for (const { a, r } of links) {
      if (g.nodes.length >= TASK_LIMITS.nodes || g.edges.length >= TASK_LIMITS.edges) break;
      const id = `n${ex.next_id++}`;
      const depth = here.depth + 1;
      const cand: Candidate = { node: id, parent: here.id, label: clip(a.label, TASK_LIMITS.label), role: a.role, depth, score: Math.round((r + 0.2 * here.score - 0.05 * depth) * 100) / 100 };
      ex.frontier.push(cand);
      g.nodes.push({ id, url: here.url, title: cand.label, depth, score: 0, state: "frontier" });
      g.edges.push({ from: here.id, to: id, label: cand.label, ref: a.ref });
    }
    // The beam: each depth keeps its best candidates.
    for (let d = 1; d <= config.depth; d++) {
      const atDepth = ex.frontier.filter((c) => c.depth === d).sort((x, y) => y.score - x.score);
      for (const c of atDepth.slice(config.beam)) {
        ex.frontier = ex.frontier.filter((f) => f !== c);
        const n = g.nodes.find((x) => x.id === c.node);
        if (n) n.state = "pruned";
      }
    }
  }
  if (config.tabs) {
    // Read the new candidates' addresses while their page is open, then close its background tab.
    ex.hrefs = ex.frontier.filter((c) => c.parent === here?.id && !c.url).map((c) => c.node);
    if (here && ex.tabs?.[here.id] !== undefined) ex.closing = here.id;
    if (ex.main === undefined) return emit(task, { call: { action: "tab_list", params: {}, risk: "low" }, purpose: "explore-tabs", selector: "the task's tabs" });
    return nextHref(task, config, now);
  }
  return visitNext(task, config, now);
}

/** Background tabs: the next candidate's href, or the parent's tab closed, or the next visit. */
function nextHref(task: ControlledTask, config: ControllerConfig, now: Date): Next {
  const ex = task.controller.explore!;
  for (let id = ex.hrefs?.shift(); id !== undefined; id = ex.hrefs?.shift()) {
    const c = ex.frontier.find((f) => f.node === id);
    if (!c) continue;
    const tab = ex.tabs?.[c.parent] ?? ex.main;
    ex.reading = c.node;
    return emit(task, {
      call: { action: "get", params: { selector: { role: c.role, name: c.label, nameMode: "exact" }, what: "attribute", name: "href" }, risk: "low" },
      purpose: "explore-href",
      selector: `${c.role} "${c.label}"`,
      ...(tab === undefined ? {} : { tab_id: tab }),
    });
  }
  if (ex.closing !== undefined) {
    const tab = ex.tabs?.[ex.closing];
    delete ex.tabs?.[ex.closing];
    delete ex.closing;
    if (tab !== undefined) return emit(task, { call: { action: "tab_close", params: { tab_id: tab }, risk: "low" }, purpose: "explore-close", selector: `tab ${tab}`, tab_id: tab });
  }
  return visitNext(task, config, now);
}

function visitNext(task: ControlledTask, config: ControllerConfig, now: Date): Next {
  const ex = task.controller.explore!;
  const g = graph(task);
  ex.frontier.sort((x, y) => y.score - x.score || x.depth - y.depth);
  const best = ex.frontier.shift();
  if (!best || ex.visits >= config.beam * config.depth) {
    for (const c of ex.frontier) {
      const n = g.nodes.find((x) => x.id === c.node);
      if (n) n.state = "pruned";
    }
    ex.frontier = [];
    return askModel(task, undefined, config, now, "exploration found no page for the goal");
  }
  if (config.tabs) {
    const seen = best.url === undefined || g.nodes.some((n) => n.url === best.url && n.state !== "frontier");
    if (seen) {
      // No address to open, or a page already judged: nothing to learn there.
      const n = g.nodes.find((x) => x.id === best.node);
      if (n) n.state = "pruned";
      return visitNext(task, config, now);
    }
    ex.visits++;
    ex.target = best;
    return emit(task, { call: { action: "tab_new", params: { url: best.url, active: false }, risk: "low" }, purpose: "explore-open", selector: best.url });
  }
  ex.visits++;
  ex.target = best;
  const parent = g.nodes.find((n) => n.id === best.parent)!;
  if (task.controller.url !== parent.url) {
    // Background tabs would need the links' URLs; the view gives labels, so exploration goes back
    // in the task's own tab.
    return emit(task, { call: { action: "open", params: { url: parent.url }, risk: "low" }, purpose: "explore-return", selector: parent.url });
  }
  return clickCandidate(task, best);
}

function clickCandidate(task: ControlledTask, c: Candidate): Next {
  const selector = { role: c.role, name: c.label, nameMode: "exact" };
  return emit(task, { call: { action: "click", params: { selector }, risk: "low" }, purpose: "explore-click", selector: `${c.role} "${c.label}"` });
}

function askModel(task: ControlledTask, pcd: Pcd | undefined, config: ControllerConfig, now: Date, why: string): Next {
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

/** The task ended from outside (the user stopped it). */
export function cancelTask(task: ControlledTask, now: Date): void {
  task.status = "cancelled";
  task.message = "You stopped this task in the browser.";
  delete task.controller.pending;
  for (const p of task.plan) if (p.status === "pending" || p.status === "running") p.status = "skipped";
  task.updated_at = now.toISOString();
}
