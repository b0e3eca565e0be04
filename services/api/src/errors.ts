import { CrumbsError, type ErrorDetails } from "@crumbs/schemas";

/**
 * Errors the API raises itself. All of them, like the engines' errors in `@crumbs/schemas`, are
 * CrumbsError (code, message, status, details): http/errors.ts turns any of them into the JSON
 * error answer.
 */
export { CrumbsError, InvalidRequestError } from "@crumbs/schemas";

export class NotFoundError extends CrumbsError {
  constructor(message = "not found", details?: ErrorDetails) {
    super("not_found", message, 404, details);
  }
}

export class UnauthorizedError extends CrumbsError {
  constructor(message = "missing or invalid bearer token") {
    super("unauthorized", message, 401, undefined, { headers: { "WWW-Authenticate": 'Bearer realm="crumbs"' } });
  }
}

export class ForbiddenError extends CrumbsError {
  constructor(message = "this token may not do that", details?: ErrorDetails) {
    super("forbidden", message, 403, details);
  }
}

export class VersionMismatchError extends CrumbsError {
  constructor(currentVersion: number) {
    super("version_mismatch", `the breadcrumb is at version ${currentVersion}`, 412, {
      current_version: currentVersion,
    });
  }
}

export class PreconditionRequiredError extends CrumbsError {
  constructor() {
    super("precondition_required", 'If-Match: "<version>" is required to update a breadcrumb', 428);
  }
}

export class KeyConflictError extends CrumbsError {
  constructor(details: { id: string; version: number }) {
    super("key_conflict", "a breadcrumb with this key already exists", 409, details);
  }
}

export class IdempotencyKeyReusedError extends CrumbsError {
  constructor() {
    super("idempotency_key_reused", "this Idempotency-Key was already used with a different request", 422);
  }
}

export class PayloadTooLargeError extends CrumbsError {
  constructor(limit: number) {
    super("payload_too_large", `the body is larger than ${limit} bytes`, 413, { limit: { name: "body", max: limit, unit: "bytes" } });
  }
}

export class MethodNotAllowedError extends CrumbsError {
  constructor(method: string, path: string, allow: string[]) {
    super("method_not_allowed", `${method} is not allowed on ${path}; it allows ${allow.join(", ")}`, 405, { allow }, {
      headers: { Allow: allow.join(", ") },
    });
  }
}

export class InvalidJsonError extends CrumbsError {
  constructor(message = "the body is not valid JSON") {
    super("invalid_json", message, 400);
  }
}

export class UnavailableError extends CrumbsError {
  constructor(message = "a backing service is unavailable", retryAfterSeconds = 1) {
    super("unavailable", message, 503, undefined, { headers: { "Retry-After": String(retryAfterSeconds) } });
  }
}

/** A bad environment at start (every problem found): the one ConfigError of every app. */
export { ConfigError } from "@crumbs/telemetry";
