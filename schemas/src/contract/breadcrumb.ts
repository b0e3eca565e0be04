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
    /** A new expiry, this many seconds from the write: how a lease is extended in one event. */
    ttl_seconds: ttlSecondsSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "at least one of title, tags, context, llm_hints, ttl_seconds");
export type PatchBreadcrumbBody = z.infer<typeof patchBreadcrumbBodySchema>;

/**
 * The body of a PATCH sent as `application/merge-patch+json` (RFC 7396, `MERGE_PATCH_CONTENT_TYPE`):
 * a merge patch of the breadcrumb's title, tags and context. `context` merges member by member,
 * recursively; a `null` member removes that key; arrays and scalars replace the stored value whole.
 * Title and tags replace, as RFC 7396 has it for strings and arrays; neither can be removed (null).
 * Top-level `llm_hints` are not merged: an `application/json` PATCH replaces them.
 */
export const mergePatchBreadcrumbBodySchema = z
  .strictObject({
    title: titleSchema.optional(),
    tags: tagsSchema.optional(),
    context: contextSchema
      .optional()
      .describe("A merge patch of the context: objects merge recursively, a null member removes its key, arrays and scalars replace"),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "at least one of title, tags, context");
export type MergePatchBreadcrumbBody = z.infer<typeof mergePatchBreadcrumbBodySchema>;
