import { z } from "zod";
import { CrumbsError, type ErrorCode, type ErrorDetails } from "@crumbs/schemas";

// One class per way a call can fail, each a CrumbsError (code, message, status, details) like the
// API's own. A call the caller aborted rejects with the signal's reason instead, as fetch does.

const errorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  details: z.looseObject({}).optional(),
});

/**
 * The API answered with an error: its contract code (`version_mismatch`, `not_found`, ...; the list
 * is ERROR_CODES in @crumbs/schemas), message, HTTP status and details (one shape for every code).
 */
export class ApiResponseError extends CrumbsError {
  declare readonly code: ErrorCode | "http_error" | "invalid_response";

  static async fromResponse(res: Response): Promise<ApiResponseError> {
    const text = await res.text().catch(() => "");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = errorBodySchema.safeParse(json);
    if (parsed.success) {
      return new ApiResponseError(parsed.data.error, parsed.data.message ?? parsed.data.error, res.status, parsed.data.details as ErrorDetails | undefined);
    }
    return new ApiResponseError(res.status >= 500 ? "unavailable" : "http_error", text.slice(0, 300) || res.statusText, res.status);
  }
}

/** The API could not be reached at all (connection refused, DNS, reset). */
export class ApiUnreachableError extends CrumbsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("api_unreachable", message, 503, undefined, { cause: options?.cause });
  }
}

/** The API did not answer within the client's timeoutMs. */
export class ApiTimeoutError extends CrumbsError {
  constructor(message: string) {
    super("timeout", message, 504);
  }
}
