import { z } from "zod";
import { schemaNameSchema, tagSchema } from "../contract/names.ts";

export const SELECTOR_OPS = [
  "eq",
  "ne",
  "in",
  "nin",
  "contains",
  "contains_any",
  "contains_all",
  "exists",
  "gt",
  "gte",
  "lt",
  "lte",
  "matches",
] as const;
export const selectorOpSchema = z.enum(SELECTOR_OPS);
export type SelectorOp = z.infer<typeof selectorOpSchema>;

export const contextMatchSchema = z
  .strictObject({
    path: z.string().min(1).max(512).describe("JSONPath evaluated on the breadcrumb's context, e.g. $.url"),
    op: selectorOpSchema,
    value: z.unknown().optional().describe("Operand; its type depends on op (array for in/nin/contains_any/contains_all)"),
  })
  .describe("One condition on the context");
export type ContextMatch = z.infer<typeof contextMatchSchema>;

// Strict on purpose: a misspelt clause (`tags` for `all_tags`) would otherwise be dropped and the
// selector would silently match everything.
export const selectorSchema = z
  .strictObject({
    schema_name: z
      .union([schemaNameSchema, z.array(schemaNameSchema).min(1).max(100)])
      .optional()
      .describe("One schema name or a list (any of them)"),
    any_tags: z.array(tagSchema).min(1).max(100).optional().describe("At least one of these tags"),
    all_tags: z.array(tagSchema).max(100).optional().describe("Every one of these tags"),
    none_tags: z.array(tagSchema).max(100).optional().describe("None of these tags"),
    context_match: z.array(contextMatchSchema).max(50).optional().describe("Every condition must hold"),
  })
  .describe("Selects breadcrumbs; all present clauses must hold, an empty selector matches everything");
export type Selector = z.infer<typeof selectorSchema>;
