/** Raised while compiling a template, path or expression; callers turn it into a typed CrumbsError. */
export class HintCompileError extends Error {}

/** Turns a stack overflow or other crash of a compiler into a HintCompileError. */
export function asCompileError(e: unknown, what: string): HintCompileError {
  if (e instanceof HintCompileError) return e;
  if (e instanceof RangeError) return new HintCompileError(`${what} is nested too deeply`);
  return new HintCompileError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
}
