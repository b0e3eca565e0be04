import { z } from "zod";
import {
  agentConsumerListSchema as strictAgentConsumerListSchema,
  agentConsumerStateSchema,
  apiKeyListSchema as strictApiKeyListSchema,
  apiKeyViewSchema,
  breadcrumbEventSchema as strictEventSchema,
  breadcrumbSchema as strictBreadcrumbSchema,
  createBreadcrumbBodySchema,
  EVENT_TYPES_SHORT,
  natsCredentialsSchema as strictNatsCredentialsSchema,
  newApiKeySchema as strictNewApiKeySchema,
  outboxRetryResultSchema as strictOutboxRetryResultSchema,
  parkedOutboxPageSchema as strictParkedOutboxPageSchema,
  parkedOutboxRowSchema,
  schemaCountsSchema as strictSchemaCountsSchema,
  type LlmHints,
  type PatchBreadcrumbBody,
} from "@crumbs/schemas";

// What the SDK reads from the API and NATS, derived from the contract's strict schemas in
// @crumbs/schemas (one definition): the same fields and checks, but loose objects, so a client keeps
// working when the server adds fields (the contract lets it). llm_hints are the server's to check.

const looseHints = z.custom<LlmHints>((v) => typeof v === "object" && v !== null).optional();

export const breadcrumbSchema = strictBreadcrumbSchema.extend({ llm_hints: looseHints }).loose();
/** The fields the contract names (the loose schema's type would hide them behind its index signature in Omit). */
export type WireBreadcrumb = z.infer<typeof strictBreadcrumbSchema>;

export const breadcrumbEventSchema = strictEventSchema.extend({ breadcrumb: breadcrumbSchema }).loose();
export type WireEvent = z.infer<typeof strictEventSchema>;

export const historyItemSchema = breadcrumbSchema.extend({ seq: z.number().int(), event: z.enum(EVENT_TYPES_SHORT) });

export const pageSchema = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item), next_cursor: z.string().nullish() });

export const eventsPageSchema = z.looseObject({
  items: z.array(breadcrumbEventSchema),
  next_after: z.number().int().nullish(),
  has_more: z.boolean().optional(),
});

/**
 * An event as a replay publish reads it: the fields its subject, msg id and printed line are made
 * of, checked; the rest (the breadcrumb) is forwarded as the API sent it, unparsed by any schema.
 * Checking whole events took longer than parsing them.
 */
export const replayedEventSchema = z.looseObject(
  strictEventSchema.pick({ seq: true, type: true, id: true, owner: true, schema_name: true, title: true, version: true }).shape,
);
export type ReplayedEvent = z.infer<typeof replayedEventSchema>;

/** The llm view of a breadcrumb: whatever its llm_hints produce. */
export const llmViewSchema = z.record(z.string(), z.unknown());
export type LlmView = z.infer<typeof llmViewSchema>;

/** Request bodies as the API takes them (the API validates them; the SDK sends them as they are). */
export type CreateBody = z.input<typeof createBreadcrumbBodySchema>;
export type PatchBreadcrumb = PatchBreadcrumbBody;

// The API's other answers, loose likewise.

export const apiKeySchema = apiKeyViewSchema.loose();
export type ApiKey = z.infer<typeof apiKeySchema>;
export const newApiKeySchema = strictNewApiKeySchema.loose();
export type NewApiKey = z.infer<typeof newApiKeySchema>;
export const apiKeyListSchema = strictApiKeyListSchema.extend({ items: z.array(apiKeySchema) }).loose();
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const parkedOutboxPageSchema = strictParkedOutboxPageSchema.extend({ items: z.array(parkedOutboxRowSchema.loose()) }).loose();
export type ParkedOutboxPage = z.infer<typeof parkedOutboxPageSchema>;
export const outboxRetryResultSchema = strictOutboxRetryResultSchema.loose();

export const natsCredentialsSchema = strictNatsCredentialsSchema.loose();
export type NatsCredentials = z.infer<typeof natsCredentialsSchema>;

export const schemaCountsSchema = strictSchemaCountsSchema.loose();
export type SchemaCounts = z.infer<typeof schemaCountsSchema>;

export const agentConsumerListSchema = strictAgentConsumerListSchema.extend({ items: z.array(agentConsumerStateSchema.loose()) }).loose();
export type AgentConsumerList = z.infer<typeof agentConsumerListSchema>;
