// The runner's public face: what a program hosting agents and the `crumbs` CLI use (the CLI names the
// variable a model needs with `routeModel`). Test support is `@crumbs/runner/testing`; the task
// controller's pure logic is `@crumbs/runner/controller`.
export { startRunner, type Runner, type RunnerOptions } from "./start-runner.ts";
export { loadRunnerConfig, ConfigError, type RunnerConfig } from "./config.ts";
export type { Agent, AgentDefContext } from "./agent-def.ts";
export { routeModel, type ModelEndpoints, type ModelRoute } from "./llm/model-route.ts";
