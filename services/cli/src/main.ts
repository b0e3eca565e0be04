import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { wantsHelp } from "./args.ts";
import { topLevelAnswer } from "./commands/catalog.js";
import { commands } from "./commands/index.ts";
import type { CliContext } from "./context.ts";
import { describeFailure, UsageError } from "./errors.ts";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * `.env` of the current directory under the environment: a variable already set wins, so
 * `PORT=9000 npm start` beats PORT in .env. Node's own parser (the `--env-file` syntax).
 */
export function withDotEnv(env: NodeJS.ProcessEnv, cwd: string): { env: NodeJS.ProcessEnv; loaded: string[] } {
  let text: string;
  try {
    text = readFileSync(join(cwd, ".env"), "utf8");
  } catch {
    return { env, loaded: [] };
  }
  const fromFile = parseEnv(text);
  const loaded = Object.keys(fromFile).filter((k) => env[k] === undefined).sort();
  return { env: { ...Object.fromEntries(loaded.map((k) => [k, fromFile[k]])), ...env }, loaded };
}

/**
 * Runs one command and returns its exit code: 0 ok, 1 failed (API errors print `code: message`
 * and their details), 2 wrong usage. Long-running commands turn the first SIGINT/SIGTERM into a
 * clean shutdown; a second one exits at once.
 */
export async function run(argv: string[], base: Omit<CliContext, "shutdown">): Promise<number> {
  const [name, ...rest] = argv;
  const answer = topLevelAnswer(name);
  if (answer) {
    (answer.stream === "out" ? base.out : base.err)(answer.text);
    return answer.code;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    base.err(`crumbs: unknown command "${name}"\nusage: crumbs <command> [options]\n(\`crumbs --help\` lists the commands)`);
    return 2;
  }
  const command = await entry.load();
  if (wantsHelp(rest)) {
    base.out(command.usage);
    return 0;
  }
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15));
    controller.abort();
  };
  if (entry.longRunning) {
    // SIGHUP too: a closed terminal must still stop the nats-server `crumbs start` runs.
    for (const s of STOP_SIGNALS) process.on(s, onSignal);
  }
  try {
    const code = await command.run(rest, { ...base, shutdown: controller.signal });
    return typeof code === "number" ? code : 0;
  } catch (err) {
    // A usage problem found deep in an argument parser still shows this command's usage.
    const failure = err instanceof UsageError && !err.usage ? new UsageError(err.problem, command.usage) : err;
    const { line, exitCode } = describeFailure(failure);
    base.err(line);
    if (base.env.CRUMBS_DEBUG && err instanceof Error) base.err(err.stack ?? "");
    return exitCode;
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}

/** Entry point of bin/crumbs.js. */
export async function main(argv: string[]): Promise<void> {
  const cwd = process.cwd();
  const { env, loaded } = withDotEnv(process.env, cwd);
  const code = await run(argv, {
    env,
    cwd,
    dotEnv: loaded,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdin: process.stdin,
    fetch: globalThis.fetch,
  });
  process.exitCode = code;
  // Long-running commands have closed what they opened; a lingering keep-alive socket or timer in
  // a dependency must not keep a stopped `crumbs start` alive.
  if (commands.find((c) => c.name === argv[0])?.longRunning) process.exit(code);
}
