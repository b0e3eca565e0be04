export { loadApiConfig, API_ENV_VARS, type ApiConfig } from "./config.ts";
export { ConfigError, CrumbsError } from "./errors.ts";
export { openDatabase, type OpenDatabaseOptions } from "./db/open.ts";
export { DEFAULT_PG_POOL } from "./db/postgres/pool-size.ts";
export type { Database } from "./db/database.ts";
export { migrate, migrationsFolder } from "./db/migrate.ts";
export { createApp, type AppDeps, type CrumbsApp } from "./http/app.ts";
export { hashToken, type Authenticate, type Principal } from "./http/auth.ts";
export { startApi, type RunningApi } from "./server.ts";
export { assembleApi, type ApiStack, type AssembleOptions } from "./assemble.ts";
export { databaseStartupError } from "./startup-errors.ts";
export { schema as tables } from "./db/schema.ts";
export {
  createNatsTrust,
  isAccountSeed,
  lockedServerConfig,
  mintRunnerUser,
  mintUser,
  OWNER_LIMITS,
  OWNER_STREAMS,
  ownerAccountKey,
  ownerPermissions,
  resolverConfig,
  type NatsTrust,
} from "./nats-auth/index.ts";
export { SCOPES, type Scope } from "./http/auth-scopes.ts";
export { breadcrumbContentCheck } from "./http/validate-write.ts";
