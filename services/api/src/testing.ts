// `@crumbs/api/testing`: what tests and the bench reach for beyond the API's public face (the root
// export, which is what a program embedding the API and the CLI use): the list of variables the
// config reads (checked against .env.example and the compose files), the drizzle tables, the token
// hash, a locked nats-server's config and owner users minted directly, and the write path's pieces
// the bench times on their own.
export { API_ENV_VARS } from "./config.ts";
export { DEFAULT_PG_POOL } from "./db/postgres/pool-size.ts";
export { schema as tables } from "./db/schema.ts";
export { hashToken } from "./http/auth.ts";
export { breadcrumbContentCheck } from "./http/validate-write.ts";
export { lockedServerConfig, mintUser, ownerAccountKey } from "./nats-auth/index.ts";
// The streamed read of /v1/events, as bench/tools/copy-lines.ts times it against COPY.
export { EventSteps } from "./store/event-lines.ts";
export { DEFAULT_PAGE_MAX_BYTES } from "./store/paging/page-budget.ts";
export { eventJsonOf } from "./store/event-json.ts";
