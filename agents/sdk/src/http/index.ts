// `@crumbs/agent-sdk/http`: the crumbs HTTP API with fetch alone, for browsers and any runtime with
// fetch (the extension and the dashboard bundle it). No NATS, no Node built-ins, no classic zod:
// the SDK's root (`@crumbs/agent-sdk`) adds the typed calls and NATS on top of it.
export { createHttpClient, type HttpClient, type HttpClientOptions, type SendOptions } from "./http-client.ts";
// The route table, one export per route (not a namespace object), so a bundle keeps only those it calls.
export * from "./routes.ts";
export { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "@crumbs/schemas/api-errors";
export { CrumbsError, ERROR_CODES, isRetryableStatus, type ErrorCode, type ErrorDetails } from "@crumbs/schemas/api-errors";
