import type { ChatMessage } from "./llm/chat-completion.ts";
import { toolTurnMessages, type ToolCallMade } from "./llm/tool-turn.ts";
import { fitHistory, summaryBlock } from "./memory/fit.ts";
import type { HistoryTurn } from "./memory/turns.ts";

export interface ViewedBreadcrumb {
  id: string;
  version: number;
  schema_name: string;
  /** The llm view (after llm_hints), never the raw context. */
  view: Record<string, unknown>;
}

export interface ToolStep {
  calls: ToolCallMade[];
  /** Result text per tool call id; every call of a finished step has one. */
  results: Record<string, string>;
}

export interface PromptInput {
  systemPrompt: string;
  contexts: ViewedBreadcrumb[];
  trigger: ViewedBreadcrumb & { event: string };
  steps?: ToolStep[];
  stepsLeft?: number;
  /** The session's earlier turns, oldest first, and the tokens they may take (0: none). */
  history?: HistoryTurn[];
  memoryTokens?: number;
}

const fence = (v: unknown) => "```json\n" + JSON.stringify(v, null, 2) + "\n```";

/**
 * The conversation a model sees: the agent's system prompt, the session's
 * earlier turns that fit the memory budget (older ones as summary lines in the
 * system message), then the current context breadcrumbs and the trigger, each
 * as its llm view, then the tool calls already made for this task with their results.
 */
export function buildMessages(input: PromptInput): ChatMessage[] {
  const parts: string[] = [];
  if (input.contexts.length) {
    parts.push("Current context:");
    for (const c of input.contexts)
      parts.push(`### ${c.schema_name} (id ${c.id}, version ${c.version})\n${fence(c.view)}`);
  }
  const t = input.trigger;
  parts.push(`Trigger: ${t.event} ${t.schema_name} (id ${t.id}, version ${t.version})\n${fence(t.view)}`);
  const content =
    typeof t.view.content === "string" && t.schema_name === "chat.message.v1" ? t.view.content : undefined;
  if (content) parts.push(`The user says:\n${content}`);
  const steps = input.steps ?? [];
  const taken = new Set(steps.flatMap((s) => s.calls.map((c) => c.toolCallId)));
  const memory = input.history?.length && input.memoryTokens ? fitHistory(input.history, input.memoryTokens, taken) : undefined;
  // The summary goes into the one system message: many chat templates refuse a system message later on.
  const system = memory?.summary.length
    ? `${input.systemPrompt}\n\n${summaryBlock(memory.summary)}`
    : input.systemPrompt;
  const messages: ChatMessage[] = [
    { role: "system", content: system },
    ...(memory?.messages ?? []),
    { role: "user", content: parts.join("\n\n") },
  ];
  for (const step of steps) messages.push(...toolTurnMessages(step.calls, (id) => step.results[id] ?? "no result"));
  if (input.stepsLeft !== undefined && input.steps?.length) {
    messages.push({
      role: "user",
      content:
        input.stepsLeft > 1
          ? `The results above came from the browser. Continue the task (${input.stepsLeft} steps left) or answer in text when done.`
          : "The results above came from the browser. This is the last step: answer in text now.",
    });
  }
  return messages;
}
