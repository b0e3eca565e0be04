import { z } from "zod";
import { llmHintsSchema } from "../llm-view/llm-hints-schema.ts";
import { isoTimeSchema, ownerSchema, schemaNameSchema, tagSchema } from "./names.ts";

export const contextSchema = z.record(z.string(), z.unknown()).describe("A JSON object");

export const breadcrumbKeySchema = z.string().min(1).max(200);

/**
 * The breadcrumb envelope as stored and returned (docs/architecture.md, "Contracts"). Absent optionals
 * are omitted, not null.
 */
export const breadcrumbSchema = z.object({
  id: z.uuid(),
  owner: ownerSchema,
  schema_name: schemaNameSchema,
  title: z.string(),
  tags: z.array(tagSchema),
  context: contextSchema,
  llm_hints: llmHintsSchema.optional(),
  key: breadcrumbKeySchema.optional(),
  version: z.number().int().min(1),
  created_at: isoTimeSchema,
  updated_at: isoTimeSchema,
  created_by: z.string(),
  updated_by: z.string(),
  expires_at: isoTimeSchema.optional(),
});
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

/** The longest `ttl_seconds` (10 years): past it `expires_at` would leave the dates Postgres and JS share. */
export const MAX_TTL_SECONDS = 10 * 365 * 86_400;
export const ttlSecondsSchema = z.number().int().min(1).max(MAX_TTL_SECONDS);

export const titleSchema = z.string().min(1).max(500);
export const tagsSchema = z.array(tagSchema).max(100);

export const createBreadcrumbBodySchema = z.strictObject({
  schema_name: schemaNameSchema,
  title: titleSchema,
  tags: tagsSchema.optional(),
  context: contextSchema,
  llm_hints: llmHintsSchema.optional(),
  key: breadcrumbKeySchema.optional(),
  ttl_seconds: ttlSecondsSchema.optional(),
});
export type CreateBreadcrumbBody = z.infer<typeof createBreadcrumbBodySchema>;

/** `llm_hints: null` removes the top-level hints. */
export const patchBreadcrumbBodySchema = z
  .strictObject({
    title: titleSchema.optional(),
    tags: tagsSchema.optional(),
    context: contextSchema.optional(),
    llm_hints: llmHintsSchema.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "at least one of title, tags, context, llm_hints");
export type PatchBreadcrumbBody = z.infer<typeof patchBreadcrumbBodySchema>;
