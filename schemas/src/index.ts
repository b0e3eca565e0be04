// @crumbs/schemas: the envelope and known schemas, selectors, llm_hints and NATS naming. Pure logic.

export * from "./errors.ts";
export * from "./reference-event.ts";
export { schemaNameSchema, ownerSchema, tagSchema, isoTimeSchema, SCHEMA_NAME_PATTERN, OWNER_PATTERN } from "./names.ts";
export * from "./breadcrumb.ts";
export * from "./request-bodies.ts";
export * from "./events.ts";

export * from "./selector-schema.ts";
export { compileSelector, parseSelectorParam, type CompiledSelector, type SelectorTarget } from "./selector-compile.ts";
export { SelectorIndex } from "./selector-index.ts";
export { subjectsForSelector, subjectsForSelectors, subjectCovers, type SubjectOptions } from "./selector-subjects.ts";
export { parseJsonPath, evaluateJsonPath, extractJsonPath, JsonPathSyntaxError, type CompiledPath } from "./json-path.ts";

export * from "./llm-hints-schema.ts";
export { validateLlmHints } from "./llm-hints-validate.ts";
export { mergeHints } from "./llm-hints-merge.ts";
export { hintsForBreadcrumb, renderLlmView, type LlmViewInput } from "./llm-view.ts";
export { BUILTIN_HINTS, PAGE_CONTEXT_DEFAULT_HINTS, builtinHintsFor } from "./default-hints.ts";
export { templateCacheStats, clearTemplateCache } from "./template-engine.ts";
export { TEMPLATE_HELPERS } from "./template-helpers.ts";

export * from "./page-context-schema.ts";
export * from "./browser-action-schema.ts";
export * from "./action-result-schema.ts";
export * from "./task-cancel-schema.ts";
export * from "./agent-schemas.ts";
export { knownContextSchemas, isKnownSchema, validateContext } from "./known-schemas.ts";

export {
  SEED_PAGE_CONTEXT_EXAMPLE,
  SEED_PAGE_CONTEXT_HINTS,
  SEED_PAGE_CONTEXT_TAGS,
  SEED_PAGE_CONTEXT_KEY,
} from "./fixtures/page-context-example.ts";
