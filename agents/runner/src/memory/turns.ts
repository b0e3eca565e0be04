import type { Breadcrumb } from "@crumbs/agent-sdk";
import { BROWSER_ACTIONS, agentResponseContextSchema } from "@crumbs/schemas";
import { toolNameFor, type BrowserAction } from "../llm/browser-tools.ts";
import type { ToolCallMade } from "../llm/tool-turn.ts";
import { isSecretTarget, secretKnowledge, withheld } from "../secrets.ts";
import { resultText, taskSchema, type Task } from "../task.ts";
import { cut } from "./tokens.ts";

// Pure: the session's breadcrumbs (raw, for structure) and their llm views (for everything the
// model reads) become turns, oldest first. A turn is one task of this agent: the user message
// that started it, the agent's tool calls with their results in step order, and its answers.

/** One history item is cut to this many characters (a long snapshot result, a pasted text). */
export const MEMORY_ITEM_CHARS = 2_000;

export interface HistoryCall extends ToolCallMade {
  /** The result as the model reads it (the result's llm view), or "no result". */
  result: string;
  /** `ok`, `error: timeout`, `error: cancelled`, `no result`: for the one-line summary. */
  outcome: string;
}

export interface HistoryTurn {
  user: string;
  /** Each entry holds the calls of one model step, in their order. */
  steps: HistoryCall[][];
  answers: string[];
}

export interface TurnPlan {
  rootId: string;
  /** When the turn began, to order turns. */
  at: number;
  message?: Breadcrumb;
  /** This agent's actions of the task, in step order. */
  actions: Array<{ b: Breadcrumb; task: Task }>;
  answers: Breadcrumb[];
}

export interface Plan {
  turns: TurnPlan[];
  /** Results by request id. */
  results: Map<string, Breadcrumb>;
}

export interface PlanQuery {
  agentId: string;
  /** The current task: its outputs are its steps, not history. */
  root: { id: string; version: number };
  /** Only what was written before this instant is history. */
  cutoff: number;
  maxTurns: number;
}

/** Group the session's breadcrumbs into this agent's turns, keeping the newest `maxTurns`. */
export function planTurns(items: Breadcrumb[], q: PlanQuery): Plan {
  const turns = new Map<string, TurnPlan>();
  const results = new Map<string, Breadcrumb>();
  const isCurrent = (root: { id: string; version: number }) => root.id === q.root.id && root.version === q.root.version;
  const turn = (rootId: string, at: number) => {
    let t = turns.get(rootId);
    if (!t) turns.set(rootId, (t = { rootId, at, actions: [], answers: [] }));
    t.at = Math.min(t.at, at);
    return t;
  };
  for (const b of items) {
    const at = Date.parse(b.created_at);
    if (!(at < q.cutoff)) continue;
    const c = b.context;
    if (b.schema_name === "chat.message.v1") {
      // The trigger itself is the current turn; its earlier versions' tasks stay history.
      if (b.id !== q.root.id) turn(b.id, at).message = b;
    } else if (b.schema_name === "agent.response.v1") {
      const r = agentResponseContextSchema.safeParse(c);
      if (r.success && r.data.agent_id === q.agentId && !isCurrent(r.data.in_reply_to)) turn(r.data.in_reply_to.id, at).answers.push(b);
    } else if (b.schema_name === "browser.action.v1") {
      const t = taskSchema.safeParse(c.task);
      if (t.success && t.data.agent_id === q.agentId && !isCurrent(t.data.root)) turn(t.data.root.id, at).actions.push({ b, task: t.data });
    }
  }
  addResults(results, items, q.cutoff);
  const ordered = [...turns.values()].sort((a, b) => a.at - b.at).slice(-q.maxTurns);
  for (const t of ordered) {
    t.actions.sort((a, b) => a.task.root.version - b.task.root.version || a.task.step - b.task.step || a.task.index - b.task.index);
    t.answers.sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  }
  return { turns: ordered, results };
}

/** Results written before `cutoff`, by request id. */
export function addResults(results: Map<string, Breadcrumb>, items: Breadcrumb[], cutoff: number): void {
  for (const b of items) {
    const id = b.context.request_id;
    if (b.schema_name !== "browser.action.result.v1" || typeof id !== "string" || !(Date.parse(b.created_at) < cutoff)) continue;
    // Lists come newest first, as in the task itself: the first result of a request is the one it read.
    if (!results.has(id)) results.set(id, b);
  }
}

/** The request ids of the plan's actions that have no result among the items read. */
export function missingResults(plan: Plan): string[] {
  return plan.turns.flatMap((t) => t.actions.map((a) => requestIdOf(a.b))).filter((id) => id && !plan.results.has(id));
}

export type Views = ReadonlyMap<string, Record<string, unknown>>;

/**
 * The turns as the model reads them. An item without a view (deleted, or its view failed) is left
 * out, never shown raw. A value typed into a field that is, or turns out to be, a secret one is
 * withheld, also when the action breadcrumb still holds it (a field only the extension recognised).
 */
export function renderTurns(plan: Plan, views: Views, current: { triggerId: string; contexts: Array<Record<string, unknown>> }): HistoryTurn[] {
  const resultView = (a: Breadcrumb) => {
    const r = plan.results.get(requestIdOf(a));
    return r ? views.get(r.id) : undefined;
  };
  const texts = plan.turns.flatMap((t) => t.actions.map((a) => resultView(a.b))).filter((v) => v !== undefined).map(resultText);
  const known = secretKnowledge(current.contexts, texts);
  return plan.turns.map((t) => {
    const message = t.message && views.get(t.message.id);
    const user = message
      ? textOf(message)
      : t.rootId === current.triggerId
        ? "(an earlier version of the current message)"
        : "(an earlier event, not a chat message)";
    const steps: HistoryCall[][] = [];
    let stepKey = "";
    for (const { b, task } of t.actions) {
      const view = views.get(b.id);
      const action = b.context.action;
      if (!view || typeof action !== "string" || !(BROWSER_ACTIONS as readonly string[]).includes(action)) continue;
      const rv = resultView(b);
      const params = isObject(view.params) ? view.params : {};
      const refused = b.context.refused !== undefined || rv?.code === "blocked_by_policy";
      const key = `${task.root.version}:${task.step}`;
      if (key !== stepKey || !steps.length) steps.push([]);
      stepKey = key;
      steps.at(-1)!.push({
        toolCallId: task.tool_call_id,
        name: toolNameFor(action as BrowserAction),
        arguments: refused || isSecretTarget(action, params, known) ? withheld(params) : params,
        result: rv ? cut(resultText(rv), MEMORY_ITEM_CHARS) : "no result",
        outcome: rv ? [rv.status, rv.code].filter((x) => typeof x === "string").join(": ") || "done" : "no result",
      });
    }
    const answers = t.answers.map((b) => views.get(b.id)).filter((v) => v !== undefined).map(textOf);
    return { user, steps, answers };
  });
}

export function requestIdOf(action: Breadcrumb): string {
  return typeof action.context.request_id === "string" ? action.context.request_id : "";
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A message's or an answer's words: its `content`, or the whole view when it has none. */
function textOf(view: Record<string, unknown>): string {
  return cut(typeof view.content === "string" ? view.content : JSON.stringify(view), MEMORY_ITEM_CHARS);
}
