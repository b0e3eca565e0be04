import { createRequire } from "node:module";
import { pino, type DestinationStream } from "pino";
import { ConfigError } from "./errors.ts";

/** One log call, in pino's order: a message, or fields (an `err` among them) and then the message. */
export interface LogFn {
  (msg: string): void;
  (fields: object, msg?: string): void;
}

/**
 * The one logger type of every crumbs app: the part of pino's API they use, so a part takes a
 * `Logger` whether it runs under pino, in a test that keeps quiet (`silentLogger`) or in the relay
 * thread (which forwards each call to the main thread's logger).
 */
export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  /** The same logger with these fields on every line (`{name: "api"}`, `{agent: "echo"}`). */
  child(bindings: Record<string, unknown>): Logger;
}

const noop = () => {};

/** A logger that writes nothing: for tests and embedded parts that keep quiet. */
export const silentLogger: Logger = { error: noop, warn: noop, info: noop, debug: noop, child: () => silentLogger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogOptions {
  level: LogLevel;
  format: LogFormat;
}

/**
 * LOG_FORMAT: `json` or `pretty`; default pretty when stderr is a terminal, JSON otherwise, so a log
 * collector never has to parse colours. LOG_LEVEL: default `warn` in pretty form and `info` in JSON:
 * a person at a terminal wants the banner of `npm start` and its first-chat hint to stay on screen,
 * not an access line per request of the extension and the dashboard (one every second or two with
 * the side panel open); a collector keeps the access log.
 */
export function logOptionsFromEnv(env: Record<string, string | undefined>, stderrIsTty = Boolean(process.stderr.isTTY)): LogOptions {
  const format = (env.LOG_FORMAT || (stderrIsTty ? "pretty" : "json")).toLowerCase();
  if (format !== "json" && format !== "pretty") {
    throw new ConfigError({ variable: "LOG_FORMAT", message: `"${env.LOG_FORMAT}" is not a format; set json or pretty` });
  }
  const level = (env.LOG_LEVEL || (format === "pretty" ? "warn" : "info")).toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError({ variable: "LOG_LEVEL", message: `"${env.LOG_LEVEL}" is not a level; set one of ${LOG_LEVELS.join(", ")}` });
  }
  return { level: level as LogLevel, format };
}

const require = createRequire(import.meta.url);

/**
 * One pino logger for a process, on stderr (stdout stays the CLI's output). Writes are synchronous:
 * a line logged just before the process exits (a start-up failure) must not be lost in a buffer.
 */
export function createLogger(opts: LogOptions, destination?: DestinationStream): Logger {
  const options = { level: opts.level, base: { pid: process.pid } };
  if (destination) return pino(options, destination);
  if (opts.format === "pretty") {
    // Loaded only when asked for: a JSON logger (every container) never pays for it.
    const pretty = require("pino-pretty") as (o: Record<string, unknown>) => DestinationStream;
    return pino(options, pretty({ destination: 2, sync: true, ignore: "pid,hostname", translateTime: "HH:MM:ss.l", singleLine: true }));
  }
  return pino(options, pino.destination({ dest: 2, sync: true }));
}

let processLogger: Logger | undefined;

/**
 * The logger of this process, from its environment, for code that was not handed one (the API or
 * the runner embedded in a program of your own). `crumbs api|runner|start` pass theirs in.
 */
export function defaultLogger(): Logger {
  processLogger ??= createLogger(logOptionsFromEnv(process.env));
  return processLogger;
}

