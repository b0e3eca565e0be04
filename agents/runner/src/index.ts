export { startRunner, type Runner, type RunnerOptions } from "./start-runner.ts";
export { loadRunnerConfig, ConfigError, RUNNER_ENV_VARS, type RunnerConfig } from "./config.ts";
export { parseAgentDef, consumerNameFor, type Agent, type AgentDefContext } from "./agent-def.ts";
export { browserTools, parseToolCall, toolNameFor, actionForTool } from "./llm/browser-tools.ts";
export { chatCompletion, ModelError, type ChatMessage, type ChatTool } from "./llm/chat-completion.ts";
export { routeModel, type ModelEndpoints, type ModelRoute } from "./llm/model-route.ts";
export { buildMessages } from "./prompt.ts";
export { RunnerMetrics } from "./metrics.ts";
