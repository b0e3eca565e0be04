import * as z from "./zod-mini.ts";
import { PCD_ACTION_KINDS, PCD_FORM_PURPOSES } from "./pcd-schema.ts";
import { PLAN_STEP_STATUSES, TASK_STATUSES } from "./task-names.ts";

// browser.task.v1: the living record of one agent task in the browser. The runner's task controller
// writes it (one breadcrumb per task, a new version at each change) so the side panel and the
// dashboard can show the goal, a progress bar and the steps, and `crumbs replay` can reproduce them.
// An agent writes it, so every array and string is capped and the whole context is byte-bounded
// (TASK_LIMITS.bytes, well under the API's 1 MiB body limit); the controller drops the oldest step
// records and graph nodes first. Written with zod/mini (./zod-mini.ts): the extension bundles it
// (`@crumbs/schemas/task`).

export { TASK_SCHEMA, TASK_TAG, TASK_STATUSES, TASK_FINAL_STATUSES, PLAN_STEP_STATUSES, taskTitle, type TaskStatus, type TaskTitleFacts } from "./task-names.ts";

export const TASK_LIMITS = {
  /** Characters of the goal, the subgoal and any free text (observation, message). */
  goal: 2000,
  text: 2000,
  label: 200,
  url: 2000,
  /** Plan steps shown at once (a skill plans 2-5; the rest are later skills). */
  planSteps: 30,
  /** Step records kept; older ones are dropped first (`history_dropped` counts them). */
  history: 100,
  slots: 30,
  predicates: 8,
  alternatives: 5,
  nodes: 60,
  edges: 120,
  recentUrls: 20,
  /** Characters of the serialized params of one call. */
  params: 4000,
  /** The whole context, serialized as JSON (UTF-8 bytes). */
  bytes: 256 * 1024,
} as const;

/**
 * The runner's deterministic skills, by the name an agent definition opts into (`skills` of
 * agent.def.v1). Each matches the page capability view, binds its slots and plans 2-5 steps.
 */
export const TASK_SKILLS = ["login", "search", "fill_form", "paginate", "navigate_menu", "open_item", "checkout"] as const;
export type TaskSkill = (typeof TASK_SKILLS)[number];
/** Exploration's bounds: candidate pages kept per depth (beam), and how many clicks from the start (depth). */
export const EXPLORE_LIMITS = { beam: { min: 1, max: 5, default: 3 }, depth: { min: 1, max: 4, default: 3 } } as const;

/** Where a slot's value came from. A `secret` slot holds the secret's name, never its value. */
export const SLOT_SOURCES = ["goal", "definition", "secret", "page", "model", "scout", "user", "default"] as const;
export const GOAL_PREDICATE_KINDS = ["form", "action", "collection", "url", "text"] as const;

const text = (max: number) => z.string().check(z.maxLength(max));
const nonEmpty = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const id = nonEmpty(200);
const name = z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,64}$/));
const ref = z.string().check(z.regex(/^[A-Za-z0-9_:-]{1,64}$/));
const int = (min: number, max?: number) => z.number().check(z.int(), z.gte(min), ...(max === undefined ? [] : [z.lte(max)]));
const isoTime = z.string().check(z.maxLength(40), z.regex(/^\d{4}-\d{2}-\d{2}T/));
const risk = z.enum(["low", "medium", "high"]);
const words = z.array(nonEmpty(TASK_LIMITS.label)).check(z.maxLength(12));
const boundedParams = z.record(z.string(), z.unknown()).check(
  z.refine((p) => JSON.stringify(p).length <= TASK_LIMITS.params, { message: `params longer than ${TASK_LIMITS.params} characters` }),
);

/**
 * What a goal page has, judged on its page capability view: a form by purpose (and fields), an
 * action by kind and words, a collection with expected fields, a URL part or a visible text.
 */
export const goalPredicateSchema = z.object({
  kind: z.enum(GOAL_PREDICATE_KINDS),
  purpose: z.optional(z.enum(PCD_FORM_PURPOSES)),
  action_kind: z.optional(z.enum(PCD_ACTION_KINDS)),
  /** Words that must appear in the label (of the action, form, collection or page), any of them. */
  words: z.optional(words),
  /** Fields a form or a collection's item must have (by label words). */
  fields: z.optional(words),
  url_contains: z.optional(nonEmpty(TASK_LIMITS.url)),
});
export type GoalPredicate = z.infer<typeof goalPredicateSchema>;

export const planStepSchema = z.object({
  id: name,
  /** The skill that planned it; absent for a step the model chose. */
  skill: z.optional(name),
  /** A browser action, or `confirm` (ask the user), `explore`, `model`, `verify`. */
  call: name,
  params: z.optional(boundedParams),
  label: nonEmpty(TASK_LIMITS.label),
  status: z.enum(PLAN_STEP_STATUSES),
  risk: z.optional(risk),
  /** Other targets for the same step, best first (from the scout or the capability view): tried when the first fails. */
  alternatives: z.optional(z.array(text(TASK_LIMITS.label)).check(z.maxLength(TASK_LIMITS.alternatives))),
});
export type PlanStep = z.infer<typeof planStepSchema>;

export const stepRecordSchema = z.object({
  /** The plan step it ran, when there was one. */
  step_id: z.optional(name),
  skill: z.optional(name),
  call: z.object({ action: name, params: z.optional(boundedParams), request_id: z.optional(id) }),
  /** The target as resolved: `ref e12`, or the role/text selector used. */
  selector: z.optional(text(TASK_LIMITS.label)),
  started_at: isoTime,
  duration_ms: int(0),
  result: z.object({
    ok: z.boolean(),
    code: z.optional(name),
    message: z.optional(text(TASK_LIMITS.text)),
  }),
  /** What changed on the page, in words (URL, title, what the capability view now offers). */
  observation: z.optional(text(TASK_LIMITS.text)),
  url: z.optional(text(TASK_LIMITS.url)),
  /** Version of the page-context breadcrumb whose capability view the step was planned on. */
  pcd_version: z.optional(int(1)),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;

export const slotBindingSchema = z.object({
  /** The value, or for a `secret` slot the secret's name: a secret's value is never written here. */
  value: text(TASK_LIMITS.text),
  source: z.enum(SLOT_SOURCES),
  /** The field it goes into, when bound to one. */
  ref: z.optional(ref),
  confidence: z.optional(z.number().check(z.gte(0), z.lte(1))),
});
export type SlotBinding = z.infer<typeof slotBindingSchema>;

export const siteNodeSchema = z.object({
  id: name,
  url: text(TASK_LIMITS.url),
  title: z.optional(text(TASK_LIMITS.label)),
  depth: int(0, 10),
  /** How well the page matches the goal predicates, 0..1. */
  score: z.number().check(z.gte(0), z.lte(1)),
  /** Dropped from the beam, or the winner. */
  state: z.optional(z.enum(["frontier", "visited", "pruned", "goal"])),
});
export const siteEdgeSchema = z.object({
  from: name,
  to: name,
  /** The navigation taken: the action's label and its ref. */
  label: text(TASK_LIMITS.label),
  ref: z.optional(ref),
});
export const siteGraphSchema = z.object({
  nodes: z.array(siteNodeSchema).check(z.maxLength(TASK_LIMITS.nodes)),
  edges: z.array(siteEdgeSchema).check(z.maxLength(TASK_LIMITS.edges)),
  recent_urls: z.array(text(TASK_LIMITS.url)).check(z.maxLength(TASK_LIMITS.recentUrls)),
});
export type SiteGraph = z.infer<typeof siteGraphSchema>;

const utf8 = new TextEncoder();
export const taskContextSchema = z
  .looseObject({
    task_id: id,
    session_id: id,
    agent_id: z.optional(id),
    /** The breadcrumb that started the task (the `task.root` of its actions). */
    root: z.optional(z.looseObject({ id, version: int(1) })),
    goal: nonEmpty(TASK_LIMITS.goal),
    subgoal: z.optional(text(TASK_LIMITS.goal)),
    goal_predicates: z._default(z.array(goalPredicateSchema).check(z.maxLength(TASK_LIMITS.predicates)), []),
    status: z.enum(TASK_STATUSES),
    progress: z.number().check(z.gte(0), z.lte(1)),
    plan: z._default(z.array(planStepSchema).check(z.maxLength(TASK_LIMITS.planSteps)), []),
    history: z._default(z.array(stepRecordSchema).check(z.maxLength(TASK_LIMITS.history)), []),
    /** Step records dropped from the front of `history` to stay within bounds. */
    history_dropped: z.optional(int(0)),
    slots: z._default(
      z.record(name, slotBindingSchema).check(z.refine((s) => Object.keys(s).length <= TASK_LIMITS.slots, { message: `at most ${TASK_LIMITS.slots} slots` })),
      {},
    ),
    site_graph: z.optional(siteGraphSchema),
    /** Skills used so far, and the model calls the task has cost. */
    skills_used: z.optional(z.array(name).check(z.maxLength(30))),
    model_calls: z._default(int(0), 0),
    /** Why the task waits, is blocked, failed or was cancelled. */
    message: z.optional(text(TASK_LIMITS.text)),
    started_at: isoTime,
    updated_at: isoTime,
  })
  .check(
    z.refine((t) => utf8.encode(JSON.stringify(t)).length <= TASK_LIMITS.bytes, {
      message: `a task context is at most ${TASK_LIMITS.bytes} bytes`,
    }),
  );
export type TaskContext = z.infer<typeof taskContextSchema>;
