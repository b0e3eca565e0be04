import { z } from "zod";
import { FORBIDDEN_SEGMENTS } from "../lang/forbidden-segments.ts";

// Structure only. `validateLlmHints` additionally compiles templates, parses paths and checks
// literal expressions; call it (not just this schema) wherever hints are written.

export { FORBIDDEN_SEGMENTS } from "../lang/forbidden-segments.ts";

const outKeySchema = z
  .string()
  .min(1)
  .max(200)
  .refine((k) => !FORBIDDEN_SEGMENTS.has(k), "this output name is reserved");

const dottedPathSchema = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => p.split(".").every((s) => s.length > 0), "a dotted path like dom.map (no empty segment)");

export const templateRuleSchema = z.strictObject({
  type: z.literal("template"),
  template: z.string().max(20_000).describe("Handlebars; data = {context, title, tags, schema_name, id, version}"),
});
export const extractRuleSchema = z.strictObject({
  type: z.literal("extract"),
  value: z.string().min(1).max(512).describe("JSONPath evaluated on the context"),
});
export const literalRuleSchema = z.strictObject({
  type: z.literal("literal"),
  literal: z.unknown().describe("Any JSON; strings of the form {{ expression }} keep the expression's type"),
});
export const hintRuleSchema = z.discriminatedUnion("type", [templateRuleSchema, extractRuleSchema, literalRuleSchema]);
export type HintRule = z.infer<typeof hintRuleSchema>;

export const llmHintsSchema = z.strictObject({
  mode: z.enum(["replace", "merge"]).optional(),
  transform: z.record(outKeySchema, hintRuleSchema).optional(),
  include: z.array(dottedPathSchema).max(200).optional(),
  exclude: z.array(dottedPathSchema).max(200).optional(),
});
export type LlmHints = z.infer<typeof llmHintsSchema>;
