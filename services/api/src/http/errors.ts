import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CrumbsError } from "@crumbs/schemas";
import { errorCode, isConnectionFailureCode } from "@crumbs/telemetry";

// A failed connection means Postgres is down or overloaded, not that the request was wrong: 503
// with Retry-After (the one code list: @crumbs/telemetry's isConnectionFailureCode). So do these
// SQLSTATEs, where the same request can succeed a moment later.
const RETRY_LATER_CODES = new Set([
  "53300", // too_many_connections
  "40001", // serialization_failure
  "40P01", // deadlock_detected
]);

export function errorBody(code: string, message: string, details?: unknown) {
  return details === undefined ? { error: code, message } : { error: code, message, details };
}

/** The one error handler: every failure becomes `{error, message, details?}` with the right status. */
export function createErrorHandler(log: (msg: string, err: unknown, requestId: string | undefined) => void) {
  return (err: Error, c: Context) => {
    // Every error a request can cause, the API's own and the engines', is a CrumbsError.
    if (err instanceof CrumbsError) {
      for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
      // A 503 (e.g. a request past its work deadline) is the server's momentary state: retry.
      if (err.status === 503 && !err.headers?.["Retry-After"]) c.header("Retry-After", "1");
      return c.json(errorBody(err.code, err.message, err.details), err.status as ContentfulStatusCode);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? "payload_too_large" : status === 401 ? "unauthorized" : "invalid_request";
      return c.json(errorBody(code, err.message || "bad request"), status as ContentfulStatusCode);
    }
    const code = errorCode(err);
    if (code && (isConnectionFailureCode(code) || RETRY_LATER_CODES.has(code))) {
      c.header("Retry-After", "1");
      return c.json(errorBody("unavailable", "the database is unavailable, retry shortly"), 503);
    }
    // SQLSTATE class 22 (data exception: e.g. \u0000 in jsonb) and 54 (limits) are the client's data.
    if (code && (code.startsWith("22") || code.startsWith("54"))) {
      return c.json(errorBody("invalid_request", "the database rejected a value in the request"), 400);
    }
    log("unhandled error", err, c.get("requestId") as string | undefined);
    return c.json(errorBody("internal", "internal error"), 500);
  };
}
