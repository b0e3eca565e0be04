import { z } from "zod";

// The SDK parses what the API and NATS send with loose object schemas: a client
// must keep working when the server adds fields (the contract lets it).

export const breadcrumbSchema = z.looseObject({
  id: z.string(),
  owner: z.string(),
  schema_name: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  context: z.record(z.string(), z.unknown()),
  llm_hints: z.unknown().optional(),
  key: z.string().nullish(),
  version: z.number().int().min(1),
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string().optional(),
  updated_by: z.string().optional(),
  expires_at: z.string().nullish(),
});
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;

export const eventTypeSchema = z.enum(["breadcrumb.created", "breadcrumb.updated", "breadcrumb.deleted"]);

export const breadcrumbEventSchema = z.looseObject({
  seq: z.number().int(),
  type: eventTypeSchema,
  id: z.string(),
  owner: z.string(),
  schema_name: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  version: z.number().int(),
  at: z.string(),
  breadcrumb: breadcrumbSchema,
});
export type BreadcrumbEvent = z.infer<typeof breadcrumbEventSchema>;

export const historyItemSchema = breadcrumbSchema.extend({ seq: z.number().int(), event: z.string() });
export type HistoryItem = z.infer<typeof historyItemSchema>;

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullish() });

export const eventsPageSchema = z.object({
  items: z.array(breadcrumbEventSchema),
  next_after: z.number().int().nullish(),
});
export type EventsPage = z.infer<typeof eventsPageSchema>;

/** The llm view of a breadcrumb: whatever its llm_hints produce. */
export const llmViewSchema = z.record(z.string(), z.unknown());
export type LlmView = z.infer<typeof llmViewSchema>;

export const createBreadcrumbSchema = z.object({
  schema_name: z.string(),
  title: z.string(),
  tags: z.array(z.string()).optional(),
  context: z.record(z.string(), z.unknown()),
  llm_hints: z.unknown().optional(),
  key: z.string().optional(),
  ttl_seconds: z.number().int().positive().optional(),
});
export type CreateBreadcrumb = z.infer<typeof createBreadcrumbSchema>;

export const patchBreadcrumbSchema = z.object({
  title: z.string().optional(),
  tags: z.array(z.string()).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  llm_hints: z.unknown().optional(),
});
export type PatchBreadcrumb = z.infer<typeof patchBreadcrumbSchema>;
