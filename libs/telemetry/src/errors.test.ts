import { describe, expect, it } from "vitest";
import { causeChain, ConfigError, errorCode, isConnectionFailureCode } from "./errors.ts";

describe("causeChain", () => {
  it("walks causes in order, and an AggregateError's errors right after it", () => {
    const refused4 = Object.assign(new Error("v4"), { code: "ECONNREFUSED" });
    const refused6 = Object.assign(new Error("v6"), { code: "ECONNREFUSED" });
    const agg = new AggregateError([refused4, refused6], "both refused");
    const top = new Error("fetch failed", { cause: agg });
    expect([...causeChain(top)]).toEqual([top, agg, refused4, refused6]);
    expect(errorCode(top)).toBe("ECONNREFUSED");
  });

  it("stops on a cycle and after a bounded depth", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect([...causeChain(a)]).toEqual([a, b]);
    let deep: unknown = Object.assign(new Error("bottom"), { code: "EPIPE" });
    for (let i = 0; i < 20; i++) deep = new Error(`level ${i}`, { cause: deep });
    expect([...causeChain(deep)].length).toBe(8);
    expect(errorCode(deep)).toBeUndefined();
  });

  it("takes nothing from non-errors", () => {
    expect([...causeChain(undefined)]).toEqual([]);
    expect(errorCode("ECONNREFUSED")).toBeUndefined();
  });
});

describe("isConnectionFailureCode", () => {
  it("knows network, driver and Postgres shutdown codes, and SQLSTATE class 08", () => {
    for (const code of ["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "CONNECT_TIMEOUT", "57P01", "08006", "08001"]) {
      expect(isConnectionFailureCode(code), code).toBe(true);
    }
    for (const code of ["23505", "22P02", "ENOENT", "40001"]) expect(isConnectionFailureCode(code), code).toBe(false);
  });
});

describe("ConfigError", () => {
  it("reports every problem, one line each, and names each variable", () => {
    const err = ConfigError.fromIssues([
      { path: ["PORT"], message: "expected a number" },
      { path: ["NATS_URL"], message: "not a nats:// URL" },
    ]);
    expect(err.message).toBe("PORT: expected a number\nNATS_URL: not a nats:// URL");
    expect(err.variables).toEqual(["PORT", "NATS_URL"]);
    expect(err.code).toBe("invalid_config");
    expect(err.name).toBe("ConfigError");
  });

  it("takes one problem as well", () => {
    const err = new ConfigError({ variable: "LOG_LEVEL", message: '"loud" is not a level' });
    expect(err.message).toBe('LOG_LEVEL: "loud" is not a level');
    expect(err.variables).toEqual(["LOG_LEVEL"]);
  });
});
