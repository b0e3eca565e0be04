export {
  createLogger,
  defaultLogger,
  silentLogger,
  logOptionsFromEnv,
  LOG_FORMATS,
  LOG_LEVELS,
  type Logger,
  type LogFn,
  type LogFormat,
  type LogLevel,
  type LogOptions,
} from "./logger.ts";
export { Counter, Gauge, Histogram, processMetrics, Registry, renderMetrics, serveMetrics, type MetricsServer } from "./metrics.ts";
export { networkReason, redactUrl, StartupError, unreachableError } from "./startup-error.ts";
export { causeChain, ConfigError, CONNECTION_FAILURE_CODES, errorCode, isConnectionFailureCode, type ConfigProblem } from "./errors.ts";
