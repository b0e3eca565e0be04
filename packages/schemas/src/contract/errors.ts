/**
 * The one error base: every error a client can cause, in the API and in the engines here, carries
 * a stable code, a message, its HTTP status and optional details, in that argument order. The API
 * maps any CrumbsError to `{error: code, message, details}` with `status` and `headers` in one
 * place (apps/api/src/http/errors.ts) without knowing the concrete class; the SDK and the CLI
 * raise CrumbsError subclasses for the answers they get.
 */
export class CrumbsError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;
  /** Response headers that belong to the error (`WWW-Authenticate`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;

  constructor(
    code: string,
    message: string,
    status: number,
    details?: unknown,
    opts: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    if (details !== undefined) this.details = details;
    if (opts.headers) this.headers = opts.headers;
  }

  toJSON(): { error: string; message: string; details?: unknown } {
    return this.details === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, details: this.details };
  }
}

export class InvalidSelectorError extends CrumbsError {
  constructor(message: string, details?: unknown) {
    super("invalid_selector", message, 422, details);
  }
}

export class InvalidLlmHintsError extends CrumbsError {
  constructor(message: string, details?: unknown) {
    super("invalid_llm_hints", message, 422, details);
  }
}

/** A view that cannot be rendered at read time. Same code as invalid hints: the hints are at fault. */
export class LlmViewError extends CrumbsError {
  constructor(message: string, details?: unknown) {
    super("invalid_llm_hints", message, 422, details);
  }
}

export class SchemaValidationError extends CrumbsError {
  constructor(message: string, details?: unknown) {
    super("schema_validation_failed", message, 422, details);
  }
}

/** A request body or parameter that is malformed (not a schema problem of the context). */
export class InvalidRequestError extends CrumbsError {
  constructor(message: string, details?: unknown) {
    super("invalid_request", message, 400, details);
  }
}

export function isCrumbsError(e: unknown): e is CrumbsError {
  return e instanceof CrumbsError;
}
