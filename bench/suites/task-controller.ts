import { TASK_SKILLS, type Pcd } from "@crumbs/schemas";
import { advance, applyModelChoice, fakeBrowser, monthOf, startTask, type ControlledTask, type ControllerConfig, type ModelChoice, type Next } from "@crumbs/runner/controller";
import type { Figure, Suite } from "../types.ts";
import { lowerIsBetter } from "../lib/figures.ts";

// Browser steps and model calls per task on the controller's account site (the pages the
// end-to-end test serves, as capability views: @crumbs/runner/controller's fake site), skills on
// against skills off. Skills off: no skill and no exploration, the model decides every step; the
// model here is an oracle that knows the site and never errs, so "off" is the best a model-driven
// loop can do, and every model call it makes is one a real model would have to make too. Skills on
// is measured twice where it explores: in the task's own tab and in background tabs. Counts
// only, no timing: the figures are the same on any machine.

const NOW = new Date("2026-11-28T12:00:00Z");
const MONTHS = [monthOf(NOW, 0), monthOf(NOW, -1), monthOf(NOW, -2)];

interface SiteTask {
  name: string;
  goal: string;
  start: string;
  /** Where the browser must be at the end. */
  done: string;
}

const TASKS: SiteTask[] = [
  { name: "log in and download last month's invoice", goal: "log in as ada@example.test and download last month's invoice", start: "/login.html", done: "/invoice.html?month=2026-10" },
  { name: "download last month's invoice (signed in)", goal: "download last month's invoice", start: "/home.html", done: "/invoice.html?month=2026-10" },
  { name: "search", goal: 'search for "invoices"', start: "/search.html", done: "/search.html?q=invoices" },
  { name: "next page of products", goal: "next page", start: "/products.html", done: "/products.html?page=2" },
];

/** The way to the invoices from each page, by link label. */
const TOWARD_INVOICES: Record<string, string> = { Home: "Account", Account: "Billing", Billing: "Invoices", Products: "Account", Search: "Account" };

/** The oracle: the one right step on each page of the site, or its final word. */
function oracle(t: SiteTask, task: ControlledTask, pcd: Pcd): ModelChoice {
  const last = task.history.at(-2);
  const path = new URL(pcd.url).pathname + new URL(pcd.url).search;
  if (path === t.done) return { kind: "text", content: "Done." };
  if (pcd.forms[0]?.purpose === "login") {
    return last?.call.action === "fill" ? { kind: "action", action: "click", params: { ref: "e3" } } : { kind: "action", action: "fill", params: { ref: "e1", value: "ada@example.test" } };
  }
  if (t.name === "search") {
    return last?.call.action === "fill" ? { kind: "action", action: "press", params: { ref: "e6", key: "Enter" } } : { kind: "action", action: "fill", params: { ref: "e6", value: "invoices" } };
  }
  if (t.name === "next page of products") return { kind: "action", action: "click", params: { selector: { role: "link", name: "Next" } } };
  if (pcd.title === "Invoices") return { kind: "action", action: "click", params: { ref: "e21" } };
  return { kind: "action", action: "click", params: { selector: { role: "link", name: TOWARD_INVOICES[pcd.title] ?? "Account" } } };
}

interface Count {
  steps: number;
  modelCalls: number;
  reached: boolean;
  status: string;
}

function runTask(t: SiteTask, config: ControllerConfig): Count {
  const browser = fakeBrowser(t.start, MONTHS);
  const ids = { task_id: "bench", session_id: "bench" };
  const started = startTask(ids, t.goal, NOW);
  const task = started.task;
  let next: Next = started.next;
  for (let i = 0; i < 200 && next.kind !== "done"; i++) {
    if (next.kind === "scout") throw new Error("the bench's agent has no scout");
    next = next.kind === "model" ? applyModelChoice(task, next.pcd!, oracle(t, task, next.pcd!), config, NOW) : advance(task, browser.run(next.emit), config, NOW);
  }
  return { steps: browser.calls.length, modelCalls: task.model_calls ?? 0, reached: browser.path() === t.done, status: task.status };
}

export const taskController: Suite = {
  name: "task-controller",
  description: "Browser steps and model calls per task on the account site, skills on against skills off (the model decides every step)",
  async run({ log }) {
    const on: ControllerConfig = { skills: new Set(TASK_SKILLS), beam: 3, depth: 3, maxModelCalls: 2, maxCalls: 40 };
    const off: ControllerConfig = { skills: new Set(), beam: 3, depth: 3, maxModelCalls: 40, maxCalls: 40, explore: false };
    const figures: Figure[] = [];
    const params: Record<string, unknown> = {};
    for (const t of TASKS) {
      const a = runTask(t, on);
      const b = runTask(t, off);
      const tabs = runTask(t, { ...on, tabs: true });
      if (!a.reached || !b.reached || !tabs.reached) throw new Error(`${t.name}: skills on ${a.status} at the goal ${a.reached}, in tabs ${tabs.status}, off ${b.status} at the goal ${b.reached}`);
      log(`${t.name}: skills on ${a.steps} steps ${a.modelCalls} model calls (${a.status}); exploring in tabs ${tabs.steps} steps; off ${b.steps} steps ${b.modelCalls} model calls (${b.status})`);
      params[t.name] = { on: a, off: b, tabs };
      figures.push(
        lowerIsBetter({ metric: `${t.name}: model calls`, value: a.modelCalls, unit: "calls", baseline: { name: "skills off", value: b.modelCalls, unit: "calls" }, goal: "<= 2", met: a.modelCalls <= 2 }),
        lowerIsBetter({ metric: `${t.name}: browser steps`, value: a.steps, unit: "steps", baseline: { name: "skills off", value: b.steps, unit: "steps" } }),
      );
      if (tabs.steps !== a.steps) {
        figures.push(lowerIsBetter({ metric: `${t.name}: browser steps, exploring in background tabs`, value: tabs.steps, unit: "steps", baseline: { name: "skills off", value: b.steps, unit: "steps" } }));
      }
    }
    return { suite: "task-controller", figures, params };
  },
};
