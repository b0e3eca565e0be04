import { z } from "zod";

const errorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  details: z.unknown().optional(),
});

/** A non-2xx answer of the crumbs API, with its contract error code (`version_mismatch`, `not_found`, ...). */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  static async fromResponse(res: Response): Promise<ApiError> {
    const text = await res.text().catch(() => "");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = errorBodySchema.safeParse(json);
    if (parsed.success) {
      return new ApiError(
        res.status,
        parsed.data.error,
        parsed.data.message ?? parsed.data.error,
        parsed.data.details,
      );
    }
    return new ApiError(
      res.status,
      res.status >= 500 ? "unavailable" : "http_error",
      text.slice(0, 300) || res.statusText,
    );
  }
}

/** The API could not be reached at all (connection refused, DNS, timeout). */
export class ApiUnreachableError extends Error {
  override readonly name = "ApiUnreachableError";
  readonly code = "api_unreachable";
  readonly status = 503;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
