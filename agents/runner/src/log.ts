import { defaultLogger, type Logger as PinoLogger } from "@crumbs/telemetry";

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** The runner's `(msg, fields)` calls on a pino logger (one per process: `crumbs start` shares the API's). */
export function pinoLogger(p: PinoLogger): Logger {
  return {
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
  };
}

/** The process logger of @crumbs/telemetry (LOG_LEVEL, JSON on stderr unless a terminal). */
export const defaultRunnerLogger = (): Logger => pinoLogger(defaultLogger().child({ name: "runner" }));

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
