/** What a command may touch, passed in so commands stay testable and free of globals. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Write one line to stdout / stderr. */
  out(line: string): void;
  err(line: string): void;
  stdin: NodeJS.ReadableStream;
  fetch: typeof fetch;
  /** Aborted on SIGINT/SIGTERM for long-running commands (start, api, runner, tail). */
  shutdown: AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Long-running commands get SIGINT/SIGTERM as `ctx.shutdown` instead of dying at once. */
  longRunning?: boolean;
  run(args: string[], ctx: CliContext): Promise<number | void>;
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(JSON.stringify(value, null, 2));
}
