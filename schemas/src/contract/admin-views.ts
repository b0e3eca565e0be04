import { z } from "zod";

// The API's operator and dashboard answers that are not breadcrumbs: the relay's parked outbox rows,
// NATS credentials, per-schema counts and an agent's consumers. One definition for the API's routes
// and OpenAPI document and for the SDK's typed calls.

const seqSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** `GET /v1/outbox/parked`: an event the relay can never publish, parked with its owner's later rows. */
export const parkedOutboxRowSchema = z.object({
  seq: z.number().int(),
  owner: z.string(),
  subject: z.string(),
  msg_id: z.string(),
  reason: z.string(),
  created_at: z.string(),
  parked_at: z.string(),
});
export type ParkedOutboxRow = z.infer<typeof parkedOutboxRowSchema>;
export const parkedOutboxPageSchema = z.object({ items: z.array(parkedOutboxRowSchema), next_after: z.number().int().nullable() });

/** `POST /v1/outbox/retry`: `{seq}` for one row (and its owner's rows parked behind it), `{all: true}` for every one. */
export const outboxRetryBodySchema = z.union([z.strictObject({ seq: seqSchema }), z.strictObject({ all: z.literal(true) })]);
export type OutboxRetryBody = z.infer<typeof outboxRetryBodySchema>;
export const outboxRetryResultSchema = z.object({ retried: z.array(z.number().int()) });

/**
 * No "-": the extension's durable name joins the owner (which may hold "-") and the extension id
 * with one, and must not be ambiguous. Owner "team" asking for id "x-abc" would otherwise get the
 * durable of owner "team-x"'s extension "abc", and could pull that owner's actions.
 */
export const EXTENSION_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;

/**
 * `POST /v1/nats/credentials`: a user of the owner's own NATS account, short-lived by default and
 * never valid past the key that asked for it; revoking the key disconnects it (SECURITY.md, "NATS").
 */
export const natsCredentialsBodySchema = z
  .strictObject({
    kind: z.enum(["agent", "extension"]).default("agent"),
    /** The extension's durable consumer is named after it, so its credentials are bound to that one consumer. */
    extension_id: z.string().regex(EXTENSION_ID_PATTERN, "must be 1-64 of A-Z a-z 0-9 _").optional(),
    ttl_seconds: z.number().int().min(60).max(86_400).default(3_600),
  })
  .refine((b) => b.kind === "agent" || b.extension_id !== undefined, { path: ["extension_id"], message: 'is required with kind "extension"' })
  .refine((b) => b.kind === "extension" || b.extension_id === undefined, { path: ["extension_id"], message: 'only with kind "extension"' });
/** What a client sends: every field may be left to its default. */
export type NatsCredentialsRequest = z.input<typeof natsCredentialsBodySchema>;

export const natsCredentialsSchema = z.object({
  owner: z.string(),
  kind: z.enum(["agent", "extension"]),
  jwt: z.string().describe("The user JWT, signed by the account"),
  seed: z.string().describe("The user's nkey seed (secret)"),
  creds: z.string().describe("A .creds file: the JWT and the seed together"),
  expires_at: z.string().nullable(),
  permissions: z.object({
    pub: z.array(z.string()),
    sub: z.array(z.string()),
    deny: z.object({ pub: z.array(z.string()), sub: z.array(z.string()) }).optional().describe("Refused even where an allowed wildcard covers them"),
  }),
  servers: z.array(z.string()).optional().describe("The NATS URLs to connect to with these credentials"),
  extension: z
    .object({ stream: z.string(), consumer: z.string(), filter_subject: z.string(), inbox_prefix: z.string() })
    .optional()
    .describe("kind extension: the consumer and inbox prefix its credentials allow"),
});
export type NatsCredentials = z.infer<typeof natsCredentialsSchema>;

/** `GET /v1/stats/schemas`: how many live breadcrumbs the owner has per schema. */
export const schemaCountsSchema = z.object({ items: z.array(z.object({ schema_name: z.string(), count: z.number().int().min(0) })) });
export type SchemaCounts = z.infer<typeof schemaCountsSchema>;

/** `GET /v1/agents/{id}/consumers`: one JetStream consumer the runner keeps for an agent. */
export const agentConsumerStateSchema = z.object({
  name: z.string(),
  filter_subject: z.string().nullable(),
  num_pending: z.number().int().describe("Messages on the stream not delivered yet"),
  num_ack_pending: z.number().int().describe("Delivered, not acked yet (a runner is working on them, or died holding them)"),
  num_redelivered: z.number().int(),
  last_delivered_stream_seq: z.number().int().nullable().describe("Stream seq of the last delivery; null before the first"),
  last_active: z.string().nullable(),
});
export type AgentConsumerState = z.infer<typeof agentConsumerStateSchema>;
export const agentConsumerListSchema = z.object({ items: z.array(agentConsumerStateSchema) });
