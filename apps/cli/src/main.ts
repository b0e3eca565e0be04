import { wantsHelp } from "./args.ts";
import { commands } from "./commands/index.ts";
import type { CliContext, Command } from "./context.ts";
import { describeFailure } from "./errors.ts";

export function globalUsage(list: readonly Command[] = commands): string {
  const width = Math.max(...list.map((c) => c.name.length));
  return [
    "usage: crumbs <command> [options]   (crumbs <command> --help for details)",
    "",
    ...list.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "Client commands use CRUMBS_URL (default http://127.0.0.1:8081) and CRUMBS_TOKEN",
    "(default: .crumbs/dev-token written by `crumbs start`).",
  ].join("\n");
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Runs one command and returns its exit code: 0 ok, 1 failed (API errors print `code: message`),
 * 2 wrong usage. Long-running commands turn the first SIGINT/SIGTERM into a clean shutdown; a
 * second one exits at once.
 */
export async function run(argv: string[], base: Omit<CliContext, "shutdown">): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? base.err : base.out)(globalUsage());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    base.err(`usage: unknown command "${name}"\n\n${globalUsage()}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    base.out(command.usage);
    return 0;
  }
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGHUP" ? 1 : 15));
    controller.abort();
  };
  if (command.longRunning) {
    // SIGHUP too: a closed terminal must still stop the nats-server `crumbs start` runs.
    for (const s of STOP_SIGNALS) process.on(s, onSignal);
  }
  try {
    const code = await command.run(rest, { ...base, shutdown: controller.signal });
    return typeof code === "number" ? code : 0;
  } catch (err) {
    const { line, exitCode } = describeFailure(err);
    base.err(line);
    if (process.env.CRUMBS_DEBUG && err instanceof Error) base.err(err.stack ?? "");
    return exitCode;
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}

/** Entry point of bin/crumbs.js. */
export async function main(argv: string[]): Promise<void> {
  const code = await run(argv, {
    env: process.env,
    cwd: process.cwd(),
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
