import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./errors.ts";
import { createLogger, logOptionsFromEnv, silentLogger, type Logger } from "./logger.ts";

describe("logOptionsFromEnv", () => {
  it("on a terminal: pretty lines at warn, so the start banner stays on screen", () => {
    expect(logOptionsFromEnv({}, true)).toEqual({ format: "pretty", level: "warn" });
  });

  it("off a terminal (a pipe, a container): JSON at info, the access log included", () => {
    expect(logOptionsFromEnv({}, false)).toEqual({ format: "json", level: "info" });
  });

  it("LOG_FORMAT=json on a terminal: JSON at info", () => {
    expect(logOptionsFromEnv({ LOG_FORMAT: "json" }, true)).toEqual({ format: "json", level: "info" });
  });

  it("LOG_FORMAT=pretty off a terminal: pretty at warn", () => {
    expect(logOptionsFromEnv({ LOG_FORMAT: "PRETTY" }, false)).toEqual({ format: "pretty", level: "warn" });
  });

  it("LOG_LEVEL wins in either form", () => {
    expect(logOptionsFromEnv({ LOG_LEVEL: "info" }, true)).toEqual({ format: "pretty", level: "info" });
    expect(logOptionsFromEnv({ LOG_LEVEL: "error" }, false)).toEqual({ format: "json", level: "error" });
  });

  it("a bad value names the variable", () => {
    expect(() => logOptionsFromEnv({ LOG_FORMAT: "xml" }, true)).toThrow(ConfigError);
    expect(() => logOptionsFromEnv({ LOG_FORMAT: "xml" }, true)).toThrow(/^LOG_FORMAT: "xml" is not a format/);
    expect(() => logOptionsFromEnv({ LOG_LEVEL: "loud" }, true)).toThrow(/^LOG_LEVEL: "loud" is not a level/);
  });
});

describe("createLogger", () => {
  it("writes one JSON object per line at the chosen level", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
    const logger = createLogger({ level: "warn", format: "json" }, sink);
    logger.info("request");
    logger.warn({ agent: "echo" }, "slow model");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, agent: "echo", msg: "slow model" });
  });
});

describe("Logger", () => {
  it("a child's lines carry its bindings, and an err field its message and stack", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
    const logger: Logger = createLogger({ level: "info", format: "json" }, sink).child({ name: "api" });
    logger.error({ err: new Error("boom") }, "close failed");
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 50, name: "api", msg: "close failed", err: { message: "boom", stack: expect.stringContaining("boom") } });
  });

  it("silentLogger and its children write nothing and throw nothing", () => {
    const quiet = silentLogger.child({ name: "runner" });
    expect(() => (quiet.warn("nothing"), quiet.error({ err: new Error("x") }, "nothing"))).not.toThrow();
    expect(quiet.child({ more: 1 })).toBe(silentLogger);
  });
});
