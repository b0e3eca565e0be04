export { KeyChanges } from "./key-changes.ts";
export { PrincipalCache } from "./principal-cache.ts";
export { clampedExpiry, createApiKey, getApiKey, KEYS_CHANNEL, listApiKeys, newApiToken, revokeApiKey, revokedApiKeysSince, type RevokedKey } from "./store.ts";
