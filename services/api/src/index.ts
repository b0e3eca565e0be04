// The API's public face: what a program embedding the API and the `crumbs` CLI use. Test support
// is `@crumbs/api/testing`; the store's functions for the bench are `@crumbs/api/store`.
export { loadApiConfig, type ApiConfig } from "./config.ts";
export { ConfigError, CrumbsError } from "./errors.ts";
export { openDatabase, type OpenDatabaseOptions } from "./db/open.ts";
export type { Database } from "./db/database.ts";
export { migrate } from "./db/migrate.ts";
export { createApp, type AppDeps, type CrumbsApp } from "./http/app.ts";
export type { Authenticate, Principal } from "./http/auth.ts";
export { startApi, type RunningApi } from "./server.ts";
export { assembleApi, type ApiStack, type AssembleOptions } from "./assemble.ts";
export { databaseStartupError } from "./startup-errors.ts";
// `crumbs keys nats` and `crumbs start` make the operator, account and runner credentials of a locked NATS.
export { createNatsTrust, isAccountSeed, mintRunnerUser, resolverConfig, type NatsTrust } from "./nats-auth/index.ts";
