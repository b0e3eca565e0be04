import { z } from "zod";
import { BROWSER_ACTIONS, actionParamsSchemas } from "@crumbs/schemas";
import type { ChatTool } from "./chat-completion.ts";

export type BrowserAction = (typeof BROWSER_ACTIONS)[number];

const TOOL_PREFIX = "browser_";

/** The tool name the model sees for an action: `browser_click`, ... */
export function toolNameFor(action: BrowserAction): string {
  return `${TOOL_PREFIX}${action}`;
}

export function actionForTool(name: string): BrowserAction | undefined {
  if (!name.startsWith(TOOL_PREFIX)) return undefined;
  const action = name.slice(TOOL_PREFIX.length);
  return (BROWSER_ACTIONS as readonly string[]).includes(action) ? (action as BrowserAction) : undefined;
}

/** `tools` of agent.def.v1 allow names or trailing-`*` patterns (`browser_*`). */
export function toolAllowed(patterns: readonly string[] | undefined, name: string): boolean {
  return (patterns ?? []).some((p) => (p.endsWith("*") ? name.startsWith(p.slice(0, -1)) : p === name));
}

const jsonSchemaCache = new Map<BrowserAction, Record<string, unknown>>();

function parametersFor(action: BrowserAction): Record<string, unknown> {
  let schema = jsonSchemaCache.get(action);
  if (!schema) {
    // Models want a plain object schema; `$schema` only adds tokens.
    const { $schema: _drop, ...rest } = z.toJSONSchema(actionParamsSchemas[action], {
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    schema = rest.type === "object" ? rest : { type: "object", properties: {}, ...rest };
    jsonSchemaCache.set(action, schema);
  }
  return schema;
}

/** One native tool per browser action the agent is allowed to use, parameters from the action's zod schema. */
export function browserTools(allowed: readonly string[] | undefined): ChatTool[] {
  return BROWSER_ACTIONS.filter((a) => toolAllowed(allowed, toolNameFor(a))).map((action) => ({
    type: "function" as const,
    function: {
      name: toolNameFor(action),
      // The contract writes these schemas with zod/mini, which keeps descriptions in the global registry only.
      description: `${z.globalRegistry.get(actionParamsSchemas[action])?.description ?? `Run "${action}"`} in the user's browser. Refs (e3) come from the page snapshot.`,
      parameters: parametersFor(action),
    },
  }));
}

export type ParsedToolCall =
  { ok: true; action: BrowserAction; params: Record<string, unknown> } | { ok: false; error: string };

/** Validate a model's tool call against the action's params schema before it reaches a browser. */
export function parseToolCall(
  name: string,
  rawArguments: string,
  allowed: readonly string[] | undefined,
): ParsedToolCall {
  const action = actionForTool(name);
  if (!action || !toolAllowed(allowed, name))
    return { ok: false, error: `unknown or disallowed tool ${name}` };
  let args: unknown;
  try {
    args = rawArguments.trim() ? JSON.parse(rawArguments) : {};
  } catch {
    return { ok: false, error: `arguments of ${name} are not JSON` };
  }
  const parsed = actionParamsSchemas[action].safeParse(args);
  if (!parsed.success)
    return { ok: false, error: `invalid arguments for ${name}: ${z.prettifyError(parsed.error)}` };
  return { ok: true, action, params: (parsed.data ?? {}) as Record<string, unknown> };
}
