import { describe, expect, it } from "vitest";
import {
  DatabaseConnectionError,
  QueryDeadlineError,
  StatementTimeoutError,
  asServiceError,
  isConnectionFailure,
  isDriverWriteFault,
} from "./connection-errors.ts";

/** The TypeError postgres-js 3.4.9 throws (porsager/postgres#1154), as Node prints it. */
function driverFault(path = "/app/node_modules/postgres/src/connection.js"): TypeError {
  const err = new TypeError("Cannot read properties of null (reading 'write')");
  err.stack = `TypeError: Cannot read properties of null (reading 'write')\n    at Immediate.nextWrite (${path}:255:22)\n    at process.processImmediate (node:internal/timers:483:21)`;
  return err;
}

const coded = (code: string) => Object.assign(new Error(code), { code });

describe("isDriverWriteFault", () => {
  it("recognises the driver's nextWrite TypeError, ESM and CJS builds", () => {
    expect(isDriverWriteFault(driverFault())).toBe(true);
    expect(isDriverWriteFault(driverFault("C:\\app\\node_modules\\postgres\\cjs\\src\\connection.js"))).toBe(true);
  });

  it("ignores other TypeErrors, even ones mentioning nextWrite elsewhere", () => {
    expect(isDriverWriteFault(new TypeError("x is not a function"))).toBe(false);
    expect(isDriverWriteFault(driverFault("/app/src/my-connection.js"))).toBe(false);
    const notType = new Error("boom");
    notType.stack = driverFault().stack;
    expect(isDriverWriteFault(notType)).toBe(false);
  });
});

describe("isConnectionFailure", () => {
  it("is true for dead or stuck connections, also behind drizzle's cause chain", () => {
    for (const code of ["ECONNREFUSED", "CONNECTION_CLOSED", "CONNECT_TIMEOUT", "57P01", "57P03", "08006"]) {
      expect(isConnectionFailure(new Error("failed query", { cause: coded(code) }))).toBe(true);
    }
    expect(isConnectionFailure(new QueryDeadlineError(10))).toBe(true);
    expect(isConnectionFailure(driverFault())).toBe(true);
  });

  it("is false for errors about the request or the data, and for a statement timeout", () => {
    for (const code of ["23505", "40001", "22P02", "57014"]) expect(isConnectionFailure(coded(code))).toBe(false);
    expect(isConnectionFailure(new StatementTimeoutError(coded("57014")))).toBe(false);
    expect(isConnectionFailure(new Error("plain"))).toBe(false);
  });
});

describe("asServiceError", () => {
  it("gives the driver fault and statement timeouts codes the HTTP layer answers with 503", () => {
    const fault = asServiceError(driverFault());
    expect(fault).toBeInstanceOf(DatabaseConnectionError);
    expect(fault).toMatchObject({ code: "08006" });
    const slow = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
    expect(asServiceError(slow)).toMatchObject({ code: "ETIMEDOUT" });
  });

  it("leaves everything else as it is", () => {
    const unique = coded("23505");
    expect(asServiceError(unique)).toBe(unique);
    const cancelled = Object.assign(new Error("canceling statement due to user request"), { code: "57014" });
    expect(asServiceError(cancelled)).toBe(cancelled);
  });
});
