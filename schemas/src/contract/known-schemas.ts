import type { ZodType } from "zod";
import type { ZodMiniType } from "zod/mini";
import { actionResultContextSchema } from "./action-result-schema.ts";
import { agentDefContextSchema, agentResponseContextSchema, chatMessageContextSchema, schemaDefContextSchema } from "./agent-schemas.ts";
import { browserActionContextSchema } from "./browser-action-schema.ts";
import { issuesFrom, pathOf, SchemaValidationError } from "./errors.ts";
import { findProtoKey, isPlainObject } from "../json-values.ts";
import { validateLlmHints } from "../llm-view/llm-hints-validate.ts";
import { pageContextSchema } from "./page-context-schema.ts";
import { INTEREST_SCHEMA, interestContextSchema } from "./interest-schema.ts";
import { TASK_CANCEL_SCHEMA, taskCancelContextSchema } from "./task-cancel-schema.ts";
import { TASK_SCHEMA, taskContextSchema } from "./task-schema.ts";

/** Classic zod, or zod/mini for the schemas a browser bundles (./zod-mini.ts); both parse alike. */
export const knownContextSchemas: Readonly<Record<string, ZodType | ZodMiniType>> = {
  "browser.page.context.v1": pageContextSchema,
  "browser.action.v1": browserActionContextSchema,
  "browser.action.result.v1": actionResultContextSchema,
  "agent.def.v1": agentDefContextSchema,
  "chat.message.v1": chatMessageContextSchema,
  "agent.response.v1": agentResponseContextSchema,
  "schema.def.v1": schemaDefContextSchema,
  [TASK_CANCEL_SCHEMA]: taskCancelContextSchema,
  [INTEREST_SCHEMA]: interestContextSchema,
  [TASK_SCHEMA]: taskContextSchema,
};

export function isKnownSchema(schemaName: string): boolean {
  return Object.hasOwn(knownContextSchemas, schemaName);
}

/**
 * Validates a context on write. A known schema is parsed with its zod schema (extra fields kept);
 * an unknown one only has to be a JSON object. Hints written inside the context (`context.llm_hints`,
 * as the reference page context does) are validated too, since they shape every view of the breadcrumb.
 * Throws SchemaValidationError (details.issues, paths from the body: `context.…`) or InvalidLlmHintsError.
 */
export function validateContext(schemaName: string, context: unknown): Record<string, unknown> {
  if (!isPlainObject(context)) throw new SchemaValidationError("context must be a JSON object", {
      issues: [{ path: ["context"], code: "invalid_type", message: "expected an object" }],
    });
  const proto = findProtoKey(context);
  if (proto !== undefined) {
    throw new SchemaValidationError(`context.${proto}: a key named __proto__ is not allowed`, {
      issues: [{ path: ["context", ...pathOf(proto)], code: "proto_key", message: "a key named __proto__ is not allowed" }],
    });
  }
  let parsed: Record<string, unknown> = context;
  const schema = isKnownSchema(schemaName) ? knownContextSchemas[schemaName] : undefined;
  if (schema) {
    const result = schema.safeParse(context);
    if (!result.success) {
      const first = result.error.issues[0];
      const at = first?.path.length ? ` at context.${first.path.join(".")}` : "";
      throw new SchemaValidationError(`context does not match ${schemaName}${at}: ${first?.message ?? "invalid"}`, { issues: issuesFrom(result.error.issues, ["context"]) });
    }
    parsed = result.data as Record<string, unknown>;
  }
  const hints = parsed.llm_hints;
  if (hints !== undefined && hints !== null) validateLlmHints(hints, "context.llm_hints");
  return parsed;
}
