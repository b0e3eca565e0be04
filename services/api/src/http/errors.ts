import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CrumbsError } from "@crumbs/schemas";

// Connection-level failures mean Postgres is down or overloaded, not that the request was wrong.
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "40001",
  "40P01",
]);

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++) out.push(e);
  return out;
}

function dbCode(err: unknown): string | undefined {
  for (const e of causes(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

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
    const code = dbCode(err);
    if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) {
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
