/**
 * Every failure the CLI reports maps to one exit code: 2 for a wrong command line (so scripts can
 * tell "you called me wrong" from "the call failed"), 1 for everything else.
 */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super("usage", message, 2);
  }
}

/** Whatever was thrown, the line the user sees and the exit code. */
export function describeFailure(err: unknown): { line: string; exitCode: number } {
  if (err instanceof CliError) return { line: `${err.code}: ${err.message}`, exitCode: err.exitCode };
  // API answers (ApiResponseError, a CrumbsError) and config errors of other packages carry a code.
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { line: `${typeof code === "string" ? code : "error"}: ${err.message}`, exitCode: 1 };
  }
  return { line: `error: ${String(err)}`, exitCode: 1 };
}
