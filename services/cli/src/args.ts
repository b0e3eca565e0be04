import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `parseArgs` in strict mode, with its errors turned into UsageError (exit 2) that carry the
 * command's usage, so a typo shows how to call the command instead of a stack trace.
 */
export function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
  usage: string,
  positionals: { min?: number; max?: number } = {},
) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError(`${(err as Error).message}`, usage);
    }
    throw err;
  }
  const count = parsed.positionals.length;
  if (count < (positionals.min ?? 0)) throw new UsageError(`missing argument`, usage);
  if (count > (positionals.max ?? 0)) {
    throw new UsageError(`unexpected argument "${parsed.positionals[positionals.max ?? 0]}"`, usage);
  }
  return parsed;
}

/** True when the user asked for help before any `--` terminator. */
export function wantsHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

/** `<command> <subcommand> ...`: runs the named subcommand, or a UsageError naming what was missing or unknown. */
export async function runSubcommand<C>(
  subcommands: Record<string, (args: string[], ctx: C) => Promise<void>>,
  args: string[],
  ctx: C,
  usage: string,
): Promise<void> {
  const [sub, ...rest] = args;
  const fn = sub === undefined ? undefined : subcommands[sub];
  if (!fn) throw new UsageError(`${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`}`, usage);
  await fn(rest, ctx);
}
