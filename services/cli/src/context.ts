/** What a command may touch, passed in so commands stay testable and free of globals. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Write one line to stdout / stderr. */
  out(line: string): void;
  err(line: string): void;
  stdin: NodeJS.ReadableStream;
  fetch: typeof fetch;
  /** Names of the variables read from ./.env (values never printed). */
  dotEnv?: string[];
  /** Aborted on SIGINT/SIGTERM for long-running commands (start, api, runner, tail). */
  shutdown: AbortSignal;
}

/** A command's module; its name and summary are in commands/index.ts, which loads it when it runs. */
export interface Command {
  usage: string;
  run(args: string[], ctx: CliContext): Promise<number | void>;
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(JSON.stringify(value, null, 2));
}
