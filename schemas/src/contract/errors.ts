/**
 * The one error base: every error a client can cause, in the API and in the engines here, carries
 * a stable code, a message, its HTTP status and optional details, in that argument order. The API
 * maps any CrumbsError to `{error: code, message, details}` with `status` and `headers` in one
 * place (services/api/src/http/errors.ts) without knowing the concrete class; the SDK and the CLI
 * raise CrumbsError subclasses for the answers they get.
 *
 * No zod here: the extension's light subpaths import this file. The zod schema of the error body
 * (for the OpenAPI document) is in error-body.ts.
 */

/** One problem with one input value. */
export interface ErrorIssue {
  /**
   * Where the value is, relative to the input the error is about: the request body
   * (`["context", "url"]`), a query parameter (`["limit"]`), the selector (`["context_match", 0]`)
   * or the hints (`["llm_hints", "transform", "t"]`).
   */
  path: (string | number)[];
  /** What is wrong, e.g. `invalid_type`, `too_big`, `invalid_format`, `invalid_rule`. */
  code: string;
  message: string;
}

/** The limit a request ran into. */
export interface ErrorLimit {
  /** What is limited: `body`, `selector`, `request`, `template output`, `transforms`, `open event streams`. */
  name: string;
  max: number;
  /** `bytes`, `work units`, `ms`, `characters`, `iterations`, `transforms`, `streams`. */
  unit: string;
}

/**
 * `details` of every error answer, whatever its code: an object (never an array) whose fields
 * each mean one thing. Absent fields are omitted.
 */
export interface ErrorDetails {
  /** Every problem found in the input: invalid_request, schema_validation_failed, invalid_selector, invalid_llm_hints. */
  issues?: ErrorIssue[];
  /** payload_too_large, budget_exceeded, rate_limited (open streams), invalid_llm_hints (too many transforms). */
  limit?: ErrorLimit;
  /** version_mismatch: the version the breadcrumb is at now. */
  current_version?: number;
  /** key_conflict: the breadcrumb that holds the key, and its version. */
  id?: string;
  version?: number;
  /** forbidden: the scope the token lacks. */
  scope?: string;
  /** method_not_allowed: the methods the path has. */
  allow?: string[];
}

/** Every error code of the contract and its HTTP status (budget_exceeded: 422, or 503 past a deadline). */
export const ERROR_CODES = {
  invalid_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  key_conflict: 409,
  version_mismatch: 412,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  schema_validation_failed: 422,
  invalid_llm_hints: 422,
  invalid_selector: 422,
  budget_exceeded: 422,
  precondition_required: 428,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Whether the same request may succeed later, unchanged: 429 (rate_limited) and every 5xx (internal,
 * unavailable, budget_exceeded past its deadline, a client's api_unreachable 503 and timeout 504).
 * Any other refusal is answered the same way again until the request or the token changes.
 */
export const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/** zod's issues (or any with a path, a code and a message) as ErrorIssues, their paths under `prefix`. */
export function issuesFrom(
  issues: readonly { path: readonly PropertyKey[]; code?: string; message: string }[],
  prefix: readonly (string | number)[] = [],
): ErrorIssue[] {
  return issues.map((i) => ({
    path: [...prefix, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))],
    code: i.code ?? "invalid",
    message: i.message,
  }));
}

/** A dotted place name (`context.llm_hints`) as a path prefix. */
export const pathOf = (dotted: string): string[] => (dotted === "" ? [] : dotted.split("."));

export class CrumbsError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: ErrorDetails;
  /** Response headers that belong to the error (`WWW-Authenticate`, `Retry-After`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** From the status (isRetryableStatus), so every client decides a retry the same way. */
  readonly retryable: boolean;

  constructor(
    code: string,
    message: string,
    status: number,
    details?: ErrorDetails,
    opts: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.retryable = isRetryableStatus(status);
    if (details !== undefined) this.details = details;
    if (opts.headers) this.headers = opts.headers;
  }

  toJSON(): { error: string; message: string; details?: ErrorDetails } {
    return this.details === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, details: this.details };
  }
}

/**
 * The base of an error class with one code: the status is the contract's for that code
 * (ERROR_CODES), and the class takes a message and optional details.
 */
function codedError(code: ErrorCode) {
  return class extends CrumbsError {
    constructor(message: string, details?: ErrorDetails) {
      super(code, message, ERROR_CODES[code], details);
    }
  };
}

export class InvalidSelectorError extends /* @__PURE__ */ codedError("invalid_selector") {}
export class InvalidLlmHintsError extends /* @__PURE__ */ codedError("invalid_llm_hints") {}
/** A view that cannot be rendered at read time. Same code as invalid hints: the hints are at fault. */
export class LlmViewError extends /* @__PURE__ */ codedError("invalid_llm_hints") {}
export class SchemaValidationError extends /* @__PURE__ */ codedError("schema_validation_failed") {}
/** A request body or parameter that is malformed (not a schema problem of the context). */
export class InvalidRequestError extends /* @__PURE__ */ codedError("invalid_request") {}

export function isCrumbsError(e: unknown): e is CrumbsError {
  return e instanceof CrumbsError;
}
