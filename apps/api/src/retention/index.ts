export { RetentionSweeper, type SweeperOptions, type SweepResult } from "./sweeper.ts";
export { parseRetentionEnv, buildRetentionPolicy, DEFAULT_RETENTION, type RetentionPolicy, type RetentionRule } from "./policy.ts";
export { pruneSchemaHistory } from "./prune.ts";
