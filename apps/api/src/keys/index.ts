export { parseDuration } from "./duration.ts";
export { apiKeyViewSchema, createKeyBodySchema, listKeysQuerySchema, ownerSchema, type ApiKeyView, type CreateKeyBody } from "./schemas.ts";
export { PrincipalCache } from "./principal-cache.ts";
export { createApiKey, getApiKey, KEYS_CHANNEL, listApiKeys, newApiToken, revokeApiKey } from "./store.ts";
