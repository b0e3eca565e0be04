export { parseDuration } from "./duration.ts";
export { apiKeyViewSchema, createKeyBodySchema, listKeysQuerySchema, ownerSchema, type ApiKeyView, type CreateKeyBody } from "./schemas.ts";
export { createApiKey, listApiKeys, newApiToken, revokeApiKey } from "./store.ts";
