/**
 * Errors the API raises itself. `@crumbs/schemas` errors (CrumbsError and its
 * subclasses) carry the same `code`/`status`/`details` shape, so the one
 * `onError` handler treats both alike.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends ApiError {
  constructor(message = "not found", details?: unknown) {
    super("not_found", 404, message, details);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = "missing or invalid bearer token") {
    super("unauthorized", 401, message, undefined, { "WWW-Authenticate": 'Bearer realm="crumbs"' });
  }
}

export class ForbiddenError extends ApiError {
  constructor(message = "this token may not do that") {
    super("forbidden", 403, message);
  }
}

export class VersionMismatchError extends ApiError {
  constructor(currentVersion: number) {
    super("version_mismatch", 412, `the breadcrumb is at version ${currentVersion}`, {
      current_version: currentVersion,
    });
  }
}

export class PreconditionRequiredError extends ApiError {
  constructor() {
    super("precondition_required", 428, 'If-Match: "<version>" is required to update a breadcrumb');
  }
}

export class KeyConflictError extends ApiError {
  constructor(details: { id: string; version: number }) {
    super("key_conflict", 409, "a breadcrumb with this key already exists", details);
  }
}

export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super("idempotency_key_reused", 422, "this Idempotency-Key was already used with a different request");
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limit: number) {
    super("payload_too_large", 413, `the body is larger than ${limit} bytes`, { limit });
  }
}

export class InvalidJsonError extends ApiError {
  constructor(message = "the body is not valid JSON") {
    super("invalid_json", 400, message);
  }
}

export class InvalidRequestError extends ApiError {
  constructor(message: string, details?: unknown) {
    super("invalid_request", 400, message, details);
  }
}

export class UnavailableError extends ApiError {
  constructor(message = "a backing service is unavailable", retryAfterSeconds = 1) {
    super("unavailable", 503, message, undefined, { "Retry-After": String(retryAfterSeconds) });
  }
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = "ConfigError";
  }
}
