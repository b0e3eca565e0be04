import { ApiResponseError, createOnce, sessionOf, type Breadcrumb, type CrumbsHttp } from "@crumbs/agent-sdk";
import { readIfPresent } from "../read-if-present.ts";
import { EXPLORE_LIMITS, TASK_FINAL_STATUSES, TASK_SCHEMA, TASK_TAG, taskTitle, type Pcd } from "@crumbs/schemas";
import type { Agent, AgentDefContext } from "../agent-def.ts";
import { isTaskCancelled, recordCancelled } from "../cancel.ts";
import { tagValue } from "../context-selectors.ts";
import type { BrowserAction } from "../llm/browser-tools.ts";
import { ModelError, chatCompletion, type ChatMessage, type ChatResult, type ChatTool } from "../llm/chat-completion.ts";
import { routeModel } from "../llm/model-route.ts";
import { requestIdFor, writeOutputs } from "../outputs.ts";
import { isSecretTarget, secretKnowledge } from "../secrets.ts";
import { outputKey, type Task } from "../task.ts";
import { fetchContexts, type StepDeps } from "../run-step.ts";
import { advance, cancelTask, startTask } from "./controller.ts";
import { applyModelChoice, applyScout, type ModelChoice, type ScoutCandidate } from "./model-fallback.ts";
import { pcdOf } from "./task-state.ts";
import type { ControlledTask, ControllerConfig, Emit, Next, Outcome } from "./types.ts";
import { choiceOf, controllerMessages, controllerTools, scoutCandidatesOf, scoutMessages } from "./model.ts";
import type { QueryAnswer } from "./skills.ts";

// The controller's IO: a chat message to an agent that opted into skills starts a task. Its
// `browser.task.v1` breadcrumb is written first (with the call in flight), then that call as a
// browser.action.v1 carrying `task.task_id`; each result feeds the controller, whose new state is
// written (If-Match on the task's version, so two replicas never both advance it) before the next
// call. Writes are idempotent by key, so a redelivered trigger or result re-sends what is in flight.

/** Browser calls one controlled task may make before it fails. */
export const MAX_CONTROLLED_CALLS = 40;
export const DEFAULT_MAX_MODEL_CALLS = 2;

export function controllerConfigOf(def: AgentDefContext): ControllerConfig | undefined {
  if (!def.skills?.length) return undefined;
  return {
    skills: new Set(def.skills),
    beam: def.explore?.beam ?? EXPLORE_LIMITS.beam.default,
    depth: def.explore?.depth ?? EXPLORE_LIMITS.depth.default,
    maxModelCalls: def.max_model_calls ?? DEFAULT_MAX_MODEL_CALLS,
    maxCalls: MAX_CONTROLLED_CALLS,
    scout: def.scout === true,
    tabs: def.explore?.tabs === true,
  };
}

interface Ctx {
  deps: StepDeps;
  agent: Agent;
  config: ControllerConfig;
  root: { id: string; version: number };
  session: string;
  extension: string;
}

const now = (deps: StepDeps) => deps.now?.() ?? new Date();
const taskIdOf = (agentId: string, root: { id: string; version: number }) => `${agentId}:${root.id}:${root.version}`;

export async function startControlledTask(deps: StepDeps, agent: Agent, trigger: Breadcrumb, config: ControllerConfig): Promise<void> {
  const def = agent.def;
  const session = sessionOf(trigger) ?? "default";
  const root = { id: trigger.id, version: trigger.version };
  let extension = tagValue(trigger, "extension");
  if (!extension) {
    const contexts = await fetchContexts(deps, def.context_selectors ?? [], trigger);
    extension = contexts.map((c) => tagValue(c.raw, "extension")).find(Boolean);
  }
  const target = { agent, root, step: 1, session, extension };
  if (!extension) {
    await writeOutputs(deps.http, target, { actions: [], text: "I could not act: no browser is linked to this conversation (no extension:<id> tag on the message or the page context)." });
    return;
  }
  const goal = typeof trigger.context.content === "string" ? trigger.context.content : trigger.title;
  const taskId = taskIdOf(def.agent_id, root);
  const { task, next } = startTask({ task_id: taskId, session_id: session, agent_id: def.agent_id, root }, goal, now(deps));
  const ctx: Ctx = { deps, agent, config, root, session, extension };
  const created = await createOnce(
    deps.http,
    {
      schema_name: TASK_SCHEMA,
      title: taskTitle(def.agent_id, task),
      tags: [TASK_TAG, `session:${session}`, `agent:${def.agent_id}`, `extension:${extension}`],
      context: task,
    },
    `${taskId}:task`,
  );
  if (!created) {
    // A redelivered trigger: the task exists; send again what it has in flight.
    const existing = await findTask(deps.http, taskId);
    const pending = (existing?.context as ControlledTask | undefined)?.controller?.pending;
    if (existing && pending) await writeAction(ctx, existing.id, pending);
    return;
  }
  if (next.kind === "act") await writeAction(ctx, created.id, next.emit);
}

async function findTask(http: CrumbsHttp, taskId: string): Promise<Breadcrumb | undefined> {
  const page = await http.list({ selector: { schema_name: TASK_SCHEMA, context_match: [{ path: "$.task_id", op: "eq", value: taskId }] }, limit: 1 });
  return page.items[0];
}


/** A browser result for an action of a controlled task. */
export async function continueControlledTask(deps: StepDeps, agent: Agent, action: Breadcrumb, result: Breadcrumb, ref: Task): Promise<void> {
  const config = controllerConfigOf(agent.def) ?? { skills: new Set(), beam: EXPLORE_LIMITS.beam.default, depth: EXPLORE_LIMITS.depth.default, maxModelCalls: agent.def.max_model_calls ?? DEFAULT_MAX_MODEL_CALLS, maxCalls: MAX_CONTROLLED_CALLS };
  const b = await readIfPresent(deps.http, ref.task_id!);
  if (!b || b.schema_name !== TASK_SCHEMA) return;
  const task = structuredClone(b.context) as ControlledTask;
  if (TASK_FINAL_STATUSES.has(task.status) || !task.controller) return;
  const extension = tagValue(action, "extension") ?? tagValue(b, "extension") ?? "";
  const ctx: Ctx = { deps, agent, config, root: ref.root, session: ref.session_id, extension };
  const pending = task.controller.pending;
  if (pending?.step !== ref.step) {
    // Already advanced past this result (a redelivery): make sure the call in flight exists.
    if (pending) await writeAction(ctx, b.id, pending);
    return;
  }
  const code = typeof result.context.code === "string" ? result.context.code : undefined;
  const taskRef = { agentId: agent.def.agent_id, root: ref.root, session: ref.session_id };
  if (code === "cancelled" || (await isTaskCancelled(deps.sessions, taskRef, action.created_at))) {
    cancelTask(task, now(deps));
    if (await save(ctx, b, task)) await recordCancelled(deps.http, taskRef, extension || undefined);
    return;
  }
  const observation = result.context.observation as Outcome["observation"] | undefined;
  const outcome: Outcome = {
    ok: result.context.status === "ok",
    ...(code ? { code } : {}),
    ...(typeof result.context.message === "string" ? { message: result.context.message } : {}),
    data: result.context.data,
    ...(observation?.url !== undefined ? { observation } : {}),
    started_at: action.created_at,
    duration_ms: Math.max(0, Date.parse(result.created_at) - Date.parse(action.created_at)),
    request_id: String(action.context.request_id),
  };
  let next = advance(task, outcome, config, now(deps));
  // The model or the scout, when the controller asks: bounded by max_model_calls, counted in the task.
  for (let i = 0; (next.kind === "model" || next.kind === "scout") && i <= config.maxModelCalls; i++) {
    if (next.kind === "scout") next = applyScout(task, await askScout(ctx, task, next.step, next.answers, outcome), now(deps));
    else next = applyModelChoice(task, next.pcd!, await askModel(ctx, task, next.pcd!), config, now(deps));
  }
  if (next.kind === "model" || next.kind === "scout") next = { kind: "done", status: "failed", message: "the model was asked too often" };
  const saved = await save(ctx, b, task);
  if (!saved) return;
  if (next.kind === "act") await writeAction(ctx, b.id, next.emit);
  else if (next.kind === "done") await writeEnd(ctx, next);
}

/** Writes the task's new version; false when another replica wrote it first. */
async function save(ctx: Ctx, b: Breadcrumb, task: ControlledTask): Promise<boolean> {
  try {
    // The title follows the task, so `crumbs replay` of its history lists its steps in order.
    await ctx.deps.http.patch(b.id, { title: taskTitle(ctx.agent.def.agent_id, task), context: task }, { ifMatch: b.version });
    return true;
  } catch (err) {
    if (err instanceof ApiResponseError && err.code === "version_mismatch") return false;
    throw err;
  }
}

/**
 * One call to the agent's model for the controller: its answer, or why there is none (no route to the
 * model, or a model error, logged as `what` failed). Any other error is the runner's and is thrown.
 */
async function callModel(
  ctx: Ctx,
  what: string,
  messages: ChatMessage[],
  tools?: ChatTool[],
): Promise<{ ok: true; result: ChatResult } | { ok: false; reason: string }> {
  const def = ctx.agent.def;
  const route = routeModel(def.model, ctx.deps.endpoints);
  if (!route.ok) return { ok: false, reason: `I cannot ask the model: ${route.reason}.` };
  try {
    const result = await chatCompletion({
      fetch: ctx.deps.fetch,
      baseUrl: route.baseUrl,
      apiKey: route.apiKey,
      model: route.model,
      messages,
      ...(tools ? { tools } : {}),
      timeoutMs: ctx.deps.modelTimeoutMs,
    });
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    ctx.deps.log.warn({ agent: def.agent_id, code: err.code, error: err.message }, `${what} failed`);
    return { ok: false, reason: `The model call failed (${err.code}): ${err.message}` };
  }
}

async function askModel(ctx: Ctx, task: ControlledTask, pcd: Pcd): Promise<ModelChoice> {
  const def = ctx.agent.def;
  const call = await callModel(ctx, "model call", controllerMessages(def.system_prompt, task, pcd), controllerTools(ctx.config.skills, def.tools));
  if (!call.ok) return { kind: "text", content: call.reason };
  const choice = choiceOf(call.result, def.tools);
  // The same rule as the model loop: a value for a secret field never enters a breadcrumb.
  if (choice.kind === "action" && isSecretTarget(choice.action as BrowserAction, choice.params, secretKnowledge([{ pcd }], []))) {
    return { kind: "text", content: "I could not act: the model wanted to type into a password, one-time-code or payment field. Fill it in yourself, then ask again." };
  }
  return choice;
}

async function askScout(ctx: Ctx, task: ControlledTask, step: string, answers: QueryAnswer[], outcome: Outcome): Promise<ScoutCandidate[]> {
  const call = await callModel(ctx, "scout call", scoutMessages(task, step, answers, pcdOf(outcome.data)));
  return call.ok ? scoutCandidatesOf(call.result) : [];
}

async function writeAction(ctx: Ctx, taskBreadcrumb: string, e: Emit): Promise<void> {
  const agentId = ctx.agent.def.agent_id;
  const key = outputKey(agentId, ctx.root, e.step, 0);
  const task: Task = {
    agent_id: agentId,
    root: ctx.root,
    session_id: ctx.session,
    step: e.step,
    tool_call_id: e.step_id ?? `call-${e.step}`,
    index: 0,
    max_steps: ctx.config.maxCalls,
    task_id: taskBreadcrumb,
  };
  await createOnce(
    ctx.deps.http,
    {
      schema_name: "browser.action.v1",
      title: `${agentId}: ${e.call.action}${e.selector ? ` ${e.selector.slice(0, 60)}` : ""}`,
      tags: ["browser:action", `extension:${ctx.extension}`, `session:${ctx.session}`, `agent:${agentId}`],
      context: {
        action: e.call.action as BrowserAction,
        params: e.call.params,
        target_extension: ctx.extension,
        request_id: requestIdFor(key),
        risk: e.call.risk ?? "medium",
        ...(e.tab_id === undefined ? {} : { tab_id: e.tab_id }),
        task,
      },
    },
    key,
  );
}

async function writeEnd(ctx: Ctx, end: Extract<Next, { kind: "done" }>): Promise<void> {
  const agentId = ctx.agent.def.agent_id;
  const tags = ["agent:response", `session:${ctx.session}`, `agent:${agentId}`];
  if (ctx.extension) tags.push(`extension:${ctx.extension}`);
  await createOnce(
    ctx.deps.http,
    {
      schema_name: "agent.response.v1",
      title: `${agentId}: ${end.message.replace(/\s+/g, " ").slice(0, 80)}`,
      tags,
      context: { agent_id: agentId, content: end.message, session_id: ctx.session, in_reply_to: ctx.root, final: true },
    },
    `${taskIdOf(agentId, ctx.root)}:end`,
  );
}
