import { CrumbsError, type ErrorCode, type ErrorDetails } from "./errors.ts";
import * as z from "./zod-mini.ts";

export { CrumbsError, ERROR_CODES, isRetryableStatus, type ErrorCode, type ErrorDetails } from "./errors.ts";

// The client side of the API's error answers: every client of the HTTP API (the SDK, the CLI, the
// extension) turns an error response into the same CrumbsError subclass. Light on purpose (zod/mini,
// no engines), so the extension bundles it through `@crumbs/schemas/api-errors`.

/** The JSON error shape the API answers with (services/api/src/http/errors.ts). */
const errorBodySchema = z.object({
  error: z.string(),
  message: z.optional(z.string()),
  details: z.optional(z.looseObject({})),
});

/**
 * The API answered with an error: its contract code (`version_mismatch`, `not_found`, ...; the list
 * is ERROR_CODES), message, HTTP status and details (one shape for every code), as a CrumbsError
 * like the API's own.
 */
export class ApiResponseError extends CrumbsError {
  declare readonly code: ErrorCode | "http_error" | "invalid_response";

  /** From the status and the text of an error answer; a body that is not the JSON error shape keeps its first 300 characters. */
  static fromBody(status: number, text: string, statusText = ""): ApiResponseError {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = errorBodySchema.safeParse(json);
    if (parsed.success) {
      return new ApiResponseError(parsed.data.error, parsed.data.message ?? parsed.data.error, status, parsed.data.details as ErrorDetails | undefined);
    }
    return new ApiResponseError(status >= 500 ? "unavailable" : "http_error", text.slice(0, 300) || statusText, status);
  }

  static async fromResponse(res: Response): Promise<ApiResponseError> {
    const text = await res.text().catch(() => "");
    return ApiResponseError.fromBody(res.status, text, res.statusText);
  }
}

/** The API could not be reached at all (connection refused, DNS, reset). */
export class ApiUnreachableError extends CrumbsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("api_unreachable", message, 503, undefined, { cause: options?.cause });
  }
}

/** The API did not answer within the client's timeout. */
export class ApiTimeoutError extends CrumbsError {
  constructor(message: string) {
    super("timeout", message, 504);
  }
}
