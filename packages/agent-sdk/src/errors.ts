import { z } from "zod";
import { CrumbsError, type ErrorDetails } from "@crumbs/schemas";

const errorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  details: z.unknown().optional(),
});

/**
 * The API answered with an error: its contract code (`version_mismatch`, `not_found`, ...),
 * message, HTTP status and details, as a CrumbsError like the API's own.
 */
export class ApiResponseError extends CrumbsError {
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
      return new ApiResponseError(
        parsed.data.error,
        parsed.data.message ?? parsed.data.error,
        res.status,
        parsed.data.details as ErrorDetails | undefined,
      );
    }
    return new ApiResponseError(
      res.status >= 500 ? "unavailable" : "http_error",
      text.slice(0, 300) || res.statusText,
      res.status,
    );
  }
}

/** The API could not be reached at all (connection refused, DNS, timeout). */
export class ApiUnreachableError extends CrumbsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("api_unreachable", message, 503, undefined, { cause: options?.cause });
  }
}
