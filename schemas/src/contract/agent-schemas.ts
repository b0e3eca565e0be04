import { z } from "zod";
import { CrumbsError } from "./errors.ts";
import { llmHintsSchema } from "../llm-view/llm-hints-schema.ts";
import { schemaNameSchema } from "./names.ts";
import { EXPLORE_LIMITS, TASK_SKILLS } from "./task-schema.ts";
import { compileSelector } from "../selector/selector-compile.ts";
import { selectorSchema } from "../selector/selector-schema.ts";

// A selector inside a context is checked as deeply as one given to the API (paths, ops, regexes).
const checkedSelectorSchema = selectorSchema.superRefine((sel, issues) => {
  try {
    compileSelector(sel);
  } catch (e) {
    if (!(e instanceof CrumbsError)) throw e;
    issues.addIssue({ code: "custom", message: e.message });
  }
});

export const agentIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "1-64 characters of A-Z a-z 0-9 _ - (it names a JetStream consumer)");

export const agentDefContextSchema = z.looseObject({
  agent_id: agentIdSchema,
  model: z.string().min(1).max(200),
  system_prompt: z.string().max(100_000),
  subscriptions: z.looseObject({ selectors: z.array(checkedSelectorSchema).min(1).max(50) }),
  context_selectors: z.array(checkedSelectorSchema).max(20).optional(),
  tools: z.array(z.string().min(1).max(100)).max(100).optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
  /**
   * Tokens of the session's earlier turns the runner puts into each prompt (docs/agents.md, "Memory");
   * absent: the runner's RUNNER_MEMORY_TOKENS; 0: no memory.
   */
  memory_tokens: z.number().int().min(0).max(200_000).optional(),
  /**
   * Skills the runner's task controller may use for this agent (docs/agents.md, "The task controller").
   * Present and not empty: each chat message becomes a `browser.task.v1` the controller drives, asking
   * the model only when no skill matches with confidence.
   */
  skills: z.array(z.enum(TASK_SKILLS)).max(TASK_SKILLS.length).optional(),
  /** Bounds of the controller's exploration (beam search over navigation) when the goal is not on the page. */
  explore: z
    .looseObject({
      beam: z.number().int().min(EXPLORE_LIMITS.beam.min).max(EXPLORE_LIMITS.beam.max).optional(),
      depth: z.number().int().min(EXPLORE_LIMITS.depth.min).max(EXPLORE_LIMITS.depth.max).optional(),
      /** Explore in background tabs (read each link, open it inactive, judge it, close it) instead of in the task's own tab. */
      tabs: z.boolean().optional(),
    })
    .optional(),
  /** Model calls one controlled task may make (default 2): the model is asked only when no skill matches. */
  max_model_calls: z.number().int().min(0).max(20).optional(),
  /** Ask the scout, a read-only model call, when the element a step should act on is ambiguous. */
  scout: z.boolean().optional(),
});
export type AgentDefContext = z.infer<typeof agentDefContextSchema>;

export const sessionIdSchema = z.string().min(1).max(200);

export const chatMessageContextSchema = z.looseObject({
  role: z.literal("user"),
  content: z.string().max(100_000),
  session_id: sessionIdSchema,
});
export type ChatMessageContext = z.infer<typeof chatMessageContextSchema>;

export const agentResponseContextSchema = z.looseObject({
  agent_id: agentIdSchema,
  content: z.string().max(100_000),
  session_id: sessionIdSchema,
  in_reply_to: z.looseObject({ id: z.uuid(), version: z.number().int().min(1) }),
  /** How the task ended when not by the model's own answer: `cancelled` when the user stopped it. */
  status: z.enum(["cancelled"]).optional(),
  /**
   * True when this answer ends its task: no browser action of the same step follows. The extension
   * takes down its "Agent at work" card and ungroups the task's tabs at once (docs/extension.md).
   */
  final: z.boolean().optional(),
});
export type AgentResponseContext = z.infer<typeof agentResponseContextSchema>;

// Its llm_hints apply to the breadcrumbs of the defined schema, not to this breadcrumb's own view.
export const schemaDefContextSchema = z.looseObject({
  defines: schemaNameSchema,
  description: z.string().max(10_000).optional(),
  llm_hints: llmHintsSchema.optional(),
});
export type SchemaDefContext = z.infer<typeof schemaDefContextSchema>;
