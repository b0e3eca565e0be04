export { PrincipalCache } from "./principal-cache.ts";
export { createApiKey, getApiKey, KEYS_CHANNEL, listApiKeys, newApiToken, revokeApiKey, revokedApiKeysSince } from "./store.ts";
