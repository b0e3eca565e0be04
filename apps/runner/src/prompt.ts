import type { ChatMessage } from "./llm/chat-completion.ts";

export interface ViewedBreadcrumb {
  id: string;
  version: number;
  schema_name: string;
  /** The llm view (after llm_hints), never the raw context. */
  view: Record<string, unknown>;
}

export interface ToolStep {
  calls: Array<{ toolCallId: string; name: string; arguments: Record<string, unknown> }>;
  /** Result text per tool call id; every call of a finished step has one. */
  results: Record<string, string>;
}

export interface PromptInput {
  systemPrompt: string;
  contexts: ViewedBreadcrumb[];
  trigger: ViewedBreadcrumb & { event: string };
  steps?: ToolStep[];
  stepsLeft?: number;
}

const fence = (v: unknown) => "```json\n" + JSON.stringify(v, null, 2) + "\n```";

/**
 * The conversation a model sees: the agent's system prompt, then the current
 * context breadcrumbs and the trigger, each as its llm view, then the tool
 * calls already made for this task with their results.
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
  const messages: ChatMessage[] = [
    { role: "system", content: input.systemPrompt },
    { role: "user", content: parts.join("\n\n") },
  ];
  for (const step of input.steps ?? []) {
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: step.calls.map((c) => ({
        id: c.toolCallId,
        type: "function" as const,
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    });
    for (const c of step.calls) {
      messages.push({
        role: "tool",
        tool_call_id: c.toolCallId,
        content: step.results[c.toolCallId] ?? "no result",
      });
    }
  }
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
