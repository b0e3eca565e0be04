import { z } from "zod";
import { MAX_DURATION_SECONDS, parseDuration } from "./duration.ts";
import { OWNER_PATTERN } from "./names.ts";

// API keys (`/v1/keys`): the bodies the API takes and the views it answers, one definition for the
// API's routes and OpenAPI document and for the SDK's typed calls.

export const SCOPES = ["read", "write", "subscribe", "admin"] as const;
export const scopeSchema = z.enum(SCOPES);
export type Scope = z.infer<typeof scopeSchema>;

const keyOwnerSchema = z
  .string()
  .regex(OWNER_PATTERN, "owner must be 1-64 letters, digits, '-' or '_' (it becomes a NATS subject token)");

export const createKeyBodySchema = z.strictObject({
  owner: keyOwnerSchema.optional(),
  scopes: z.array(scopeSchema).min(1).max(4),
  name: z.string().min(1).max(100).regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, "visible ASCII").optional(),
  /** `30d`, `12h`, ... or seconds, 1 s .. 10 years. Absent: the key does not expire. */
  expires_in: z
    .union([z.string().max(20), z.number().int().min(1).max(MAX_DURATION_SECONDS)])
    .transform((v, ctx) => {
      const seconds = parseDuration(String(v));
      if (seconds === undefined) {
        ctx.addIssue({ code: "custom", message: `expires_in must be a duration such as "30d", "12h" or seconds, from 1 s to ${MAX_DURATION_SECONDS} s (10 years)` });
        return z.NEVER;
      }
      return seconds;
    })
    .optional(),
});
export type CreateKeyBody = z.infer<typeof createKeyBodySchema>;
/** What a client sends: `expires_in` as written (`"30d"` or seconds). */
export type CreateKeyRequest = z.input<typeof createKeyBodySchema>;

export const listKeysQuerySchema = z.object({ owner: keyOwnerSchema.optional() });

/** What the API shows of a key: never the token or its hash. */
export const apiKeyViewSchema = z.object({
  id: z.uuid(),
  owner: z.string(),
  name: z.string().nullable(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

/** The answer to a create: the view and the bearer token, shown this once. */
export const newApiKeySchema = apiKeyViewSchema.extend({ token: z.string().describe("The bearer token, shown this once") });
export type NewApiKey = z.infer<typeof newApiKeySchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeyViewSchema) });
