import type { ChatMessage } from "./chat-completion.ts";

export interface ToolCallMade {
  toolCallId: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One model step that called tools: the assistant's calls, then one tool message per call with its result. */
export function toolTurnMessages(calls: ToolCallMade[], resultOf: (toolCallId: string) => string): ChatMessage[] {
  return [
    {
      role: "assistant",
      content: null,
      tool_calls: calls.map((c) => ({
        id: c.toolCallId,
        type: "function" as const,
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      })),
    },
    ...calls.map((c): ChatMessage => ({ role: "tool", tool_call_id: c.toolCallId, content: resultOf(c.toolCallId) })),
  ];
}
