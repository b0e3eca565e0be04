import { sessionOf, type Breadcrumb, type CrumbsHttp } from "@crumbs/agent-sdk";
import { LlmViewError } from "@crumbs/schemas";
import type { Agent } from "./agent-def.ts";
import { resolveContextSelector, tagValue } from "./context-selectors.ts";
import { browserTools, parseToolCall } from "./llm/browser-tools.ts";
import { ModelError, chatCompletion } from "./llm/chat-completion.ts";
import { routeModel, type ModelEndpoints } from "./llm/model-route.ts";
import type { Logger } from "@crumbs/telemetry";
import { isTaskCancelled, recordCancelled } from "./cancel.ts";
import { writeOutputs, type PlannedAction } from "./outputs.ts";
import { SECRET_REFUSAL, isSecretTarget, secretKnowledge, withheld } from "./secrets.ts";
import { buildMessages, type ToolStep, type ViewedBreadcrumb } from "./prompt.ts";
import { readHistory } from "./memory/read-history.ts";
import type { LlmViews } from "./llm/llm-views.ts";
import { latestMatching } from "./latest-matching.ts";
import type { SessionReads } from "./session-reads.ts";

export interface StepDeps {
  http: CrumbsHttp;
  /** Llm views rendered here from the breadcrumbs in hand, with the owner's schema.def hints. */
  views: LlmViews;
  /** Session reads of the memory and of cancels, batched across the triggers in flight. */
  sessions: SessionReads;
  fetch: typeof fetch;
  endpoints: ModelEndpoints;
  modelTimeoutMs: number;
  maxSteps: number;
  /** Tokens of session history per prompt, unless the agent sets its own (docs/agents.md, "Memory"). */
  memoryTokens: number;
  log: Logger;
  /** The clock of the task controller (tests pass their own). */
  now?: () => Date;
}

export interface StepInput {
  agent: Agent;
  /** The task's first trigger as it is now, and the version that started the task. */
  trigger: Breadcrumb;
  root: { id: string; version: number };
  event: string;
  step: number;
  steps: ToolStep[];
}

/**
 * One plan-act step: gather the context views, ask the model, and write what
 * it decided as breadcrumbs. Model failures become the agent's answer; only
 * API failures throw, so the trigger is redelivered and retried.
 */
export async function runStep(deps: StepDeps, input: StepInput): Promise<void> {
  const { agent, trigger, step } = input;
  const def = agent.def;
  const contexts = await fetchContexts(deps, def.context_selectors ?? [], trigger);
  const ownSession = sessionOf(trigger);
  const session = ownSession ?? "default";
  const extension =
    tagValue(trigger, "extension") ?? contexts.map((c) => tagValue(c.raw, "extension")).find(Boolean);
  const target = { agent, root: input.root, step, session, extension, maxSteps: deps.maxSteps };
  const answer = (text: string) => writeOutputs(deps.http, target, { actions: [], text });

  const route = routeModel(def.model, deps.endpoints);
  if (!route.ok) return void (await answer(`I cannot answer: ${route.reason}.`));

  // Without a session there is no conversation to remember.
  const memoryTokens = ownSession === undefined ? 0 : (def.memory_tokens ?? deps.memoryTokens);
  // Side by side: each is a round trip to the API, and neither needs the other.
  const [triggerView, history] = await Promise.all([
    deps.views.of(trigger),
    memoryTokens
      ? readHistory(deps, {
          agentId: def.agent_id,
          session,
          trigger,
          root: input.root,
          contexts: contexts.map((c) => c.raw.context),
          budget: memoryTokens,
        })
      : [],
  ]);
  const lastStep = step >= deps.maxSteps;
  const tools = lastStep ? [] : browserTools(def.tools);
  const messages = buildMessages({
    systemPrompt: def.system_prompt,
    contexts: contexts.map((c) => c.viewed),
    trigger: {
      id: trigger.id,
      version: trigger.version,
      schema_name: trigger.schema_name,
      event: input.event,
      view: triggerView,
    },
    steps: input.steps,
    stepsLeft: deps.maxSteps - step + 1,
    history,
    memoryTokens,
  });
  let result;
  try {
    result = await chatCompletion({
      fetch: deps.fetch,
      baseUrl: route.baseUrl,
      apiKey: route.apiKey,
      model: route.model,
      messages,
      tools,
      timeoutMs: deps.modelTimeoutMs,
    });
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    deps.log.warn({ agent: def.agent_id, trigger: trigger.id, code: err.code, error: err.message }, "model call failed");
    return void (await answer(`The model call failed (${err.code}): ${err.message}`));
  }

  // The user may have pressed Stop while the model was thinking: nothing of this answer is done.
  const task = { agentId: def.agent_id, root: input.root, session };
  if (await isTaskCancelled(deps.sessions, task, trigger.created_at)) return void (await recordCancelled(deps.http, task, extension));

  const actions: PlannedAction[] = [];
  const problems: string[] = [];
  // The last step offers no tools, but a model may call one anyway: acting on it would run the
  // task past its limit (and forever with a model that always calls a tool), so it ends here.
  if (lastStep && result.toolCalls.length) {
    problems.push(`the task reached its limit of ${deps.maxSteps} steps`);
  }
  const known = secretKnowledge(
    contexts.map((c) => c.raw.context),
    input.steps.flatMap((s) => Object.values(s.results)),
  );
  for (const call of lastStep ? [] : result.toolCalls) {
    const parsed = parseToolCall(call.function.name, call.function.arguments, def.tools);
    if (!parsed.ok) problems.push(parsed.error);
    else if (isSecretTarget(parsed.action, parsed.params, known)) {
      // Refused before it is written: the value goes into no breadcrumb and no history row.
      actions.push({
        toolCallId: call.id,
        action: parsed.action,
        params: withheld(parsed.params),
        refusal: { code: "blocked_by_policy", message: SECRET_REFUSAL },
      });
    } else actions.push({ toolCallId: call.id, action: parsed.action, params: parsed.params });
  }
  if (actions.length && !extension) {
    problems.push(
      "no browser is linked to this conversation (no extension:<id> tag on the message or the page context)",
    );
    actions.length = 0;
  }
  const textParts = [result.content?.trim(), ...problems.map((p) => `I could not act: ${p}.`)].filter(
    Boolean,
  );
  let text = textParts.length ? textParts.join("\n\n") : undefined;
  if (!text && !actions.length) text = "The model returned an empty answer.";
  await writeOutputs(deps.http, target, { actions, text });
}

export interface FetchedContext {
  raw: Breadcrumb;
  viewed: ViewedBreadcrumb;
}

/** The latest breadcrumb of each context selector, in its llm view. */
export async function fetchContexts(
  { http, views }: Pick<StepDeps, "http" | "views">,
  selectors: unknown[],
  trigger: Breadcrumb,
): Promise<FetchedContext[]> {
  const out: FetchedContext[] = [];
  for (const s of selectors) {
    const selector = resolveContextSelector(s as Parameters<typeof resolveContextSelector>[0], trigger);
    const latest = await latestMatching(http, selector);
    if (!latest || out.some((c) => c.raw.id === latest.id)) continue;
    try {
      const view = await views.of(latest);
      out.push({
        raw: latest,
        viewed: { id: latest.id, version: latest.version, schema_name: latest.schema_name, view },
      });
    } catch (err) {
      // A view that fails: the model goes without it, never with the raw context.
      if (!(err instanceof LlmViewError)) throw err;
    }
  }
  return out;
}
