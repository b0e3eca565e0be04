// @crumbs/schemas: the envelope and known schemas, selectors, llm_hints and NATS naming. Pure logic.

export * from "./contract/errors.ts";
export * from "./contract/api-errors.ts";
export * from "./contract/error-body.ts";
export * from "./contract/reference-event.ts";
export {
  BudgetExceededError,
  createWorkBudget,
  evaluationBudget,
  DEFAULT_EVALUATION_UNITS,
  type BudgetReason,
  type WorkBudget,
  type WorkBudgetOptions,
} from "./budget.ts";
export { warmEngines } from "./warm-up.ts";
export { schemaNameSchema, ownerSchema, tagSchema, isoTimeSchema, SCHEMA_NAME_PATTERN, OWNER_PATTERN } from "./contract/names.ts";
export * from "./contract/breadcrumb.ts";
export * from "./contract/request-bodies.ts";
export * from "./contract/events.ts";
export * from "./contract/merge-patch.ts";

export * from "./selector/selector-schema.ts";
export { compileSelector, parseSelectorParam, type CompiledSelector, type SelectorTarget } from "./selector/selector-compile.ts";
export { SelectorIndex } from "./selector/selector-index.ts";
export { subjectsForSelector, subjectsForSelectors, subjectCovers, type SubjectOptions } from "./selector/selector-subjects.ts";
export { selectorCanMatchSchema } from "./selector/schema-reach.ts";
export { parseJsonPath, evaluateJsonPath, extractJsonPath, JsonPathSyntaxError, type CompiledPath } from "./json-path/json-path.ts";

export * from "./llm-view/llm-hints-schema.ts";
export { validateLlmHints, MAX_TRANSFORMS } from "./llm-view/llm-hints-validate.ts";
export { mergeHints } from "./llm-view/llm-hints-merge.ts";
export { hintsForBreadcrumb, renderLlmView, VIEW_UNITS, TRANSFORMS_UNITS, TRANSFORM_UNITS, TRANSFORMS_DEADLINE_MS, TRANSFORM_DEADLINE_MS, type LlmViewInput } from "./llm-view/llm-view.ts";
export { MAX_TEMPLATE_ITERATIONS, MAX_TEMPLATE_OUTPUT, MAX_LOOP_NESTING } from "./lang/template-budget.ts";
export { compileSafeRegex, MAX_REGEX_LENGTH, ALLOWED_REGEX_FLAGS, type SafeRegex } from "./selector/regex.ts";
export { BUILTIN_HINTS, PAGE_CONTEXT_DEFAULT_HINTS, builtinHintsFor } from "./llm-view/default-hints.ts";
export { templateCacheStats, clearTemplateCache } from "./lang/template-engine.ts";
export { TEMPLATE_HELPERS } from "./lang/template-helpers.ts";

export * from "./contract/page-context-schema.ts";
export * from "./contract/browser-action-schema.ts";
export * from "./contract/pcd-schema.ts";
export * from "./contract/token-estimate.ts";
export * from "./contract/action-result-schema.ts";
export * from "./contract/task-cancel-schema.ts";
export * from "./contract/interest-schema.ts";
export * from "./contract/task-schema.ts";
export * from "./contract/agent-schemas.ts";
export { knownContextSchemas, isKnownSchema, validateContext } from "./contract/known-schemas.ts";

export {
  REFERENCE_PAGE_CONTEXT,
  REFERENCE_PAGE_HINTS,
  REFERENCE_PAGE_CONTEXT_TAGS,
  REFERENCE_PAGE_CONTEXT_KEY,
} from "./contract/fixtures/page-context-example.ts";
export { MERGE_PATCH_EXAMPLES } from "./contract/fixtures/merge-patch-examples.ts";
export { agentConsumerPrefix, consumerToken, isAgentConsumer, AGENT_CONSUMER_PREFIX } from "./contract/agent-consumer.ts";
export * from "./contract/api-keys.ts";
export * from "./contract/admin-views.ts";
export { LruCache } from "./lru.ts";
