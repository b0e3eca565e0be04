import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../context.ts";
import { BODY_COMPONENTS, Selector } from "./components.ts";

const TAGS = [
  { name: "breadcrumbs", description: "Versioned JSON records: create, read (also as the llm view), update with If-Match, delete, history" },
  { name: "events", description: "Every change as an event, in seq order: replay a page at a time, or follow live over SSE" },
  { name: "agents", description: "The runner's JetStream consumers per agent" },
  { name: "keys", description: "API keys of owners and their scopes (admin)" },
  { name: "nats", description: "NATS credentials for the token's owner" },
  { name: "outbox", description: "Events the relay parked (admin of owner default)" },
  { name: "operations", description: "Health, readiness, metrics and this document" },
];

const DESCRIPTION = `crumbs keeps versioned JSON breadcrumbs and publishes every change on NATS JetStream.

Every \`/v1\` operation takes \`Authorization: Bearer <token>\`; the scope it needs is its security requirement
(\`read\`, \`write\`, \`subscribe\`, \`admin\`), and a token sees only its owner's breadcrumbs. Errors are
\`{error, message, details?}\` with a stable code (components/schemas/Error); \`details\` has one shape for every code.
Rate-limited answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`
(draft-ietf-httpapi-ratelimit-headers-07) and a 429 \`Retry-After\`. Reads answer an \`ETag\` and 304 to a current
\`If-None-Match\`; a known path with another method answers 405 with \`Allow\`.`;

/**
 * The OpenAPI 3.1 document of `app`, generated from the routes' definitions: the same zod schemas
 * validate the requests. Built once, after every route is defined.
 */
export function buildDocument(app: OpenAPIHono<AppEnv>): object {
  const registry = app.openAPIRegistry;
  for (const [name, schema] of BODY_COMPONENTS) registry.register(name, schema);
  registry.register("Selector", Selector);
  registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "CRUMBS_TOKEN (the admin of owner default) or an API key from POST /v1/keys",
  });
  return app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "crumbs API",
      version: "1.0.0",
      description: DESCRIPTION,
    },
    servers: [{ url: "/", description: "The API that serves this document" }],
    tags: TAGS,
  });
}
