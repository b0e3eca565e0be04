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

/** A wrong command line: what is wrong, and the command's usage to show with it. */
export class UsageError extends CliError {
  constructor(
    readonly problem: string,
    readonly usage?: string,
  ) {
    super("usage", problem, 2);
  }
}

/**
 * The problem, the command's synopsis (its usage up to the first blank line, not the whole help)
 * and where the rest is: `crumbs agents: unknown subcommand "bogus"` / `usage: crumbs agents ...`.
 */
function formatUsageError(err: UsageError): string {
  if (!err.usage) return `crumbs: ${err.problem}`;
  const synopsis = err.usage.split(/\n\s*\n/)[0] ?? err.usage;
  const command = /^usage: crumbs (\S+)/.exec(synopsis)?.[1];
  const who = command && !command.startsWith("<") ? `crumbs ${command}` : "crumbs";
  return `${who}: ${err.problem}\n${synopsis}\n(\`${who} --help\` for details)`;
}

/**
 * An API error's `details` as indented lines: each issue at its path, the limit hit, and the other
 * fields (current_version, scope, ...) as `name: value`, so a rejected body says where it is wrong.
 */
export function formatDetails(details: unknown): string[] {
  if (details === undefined || details === null) return [];
  if (typeof details !== "object" || Array.isArray(details)) return [`  details: ${JSON.stringify(details)}`];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(details as Record<string, unknown>)) {
    if (key === "issues" && Array.isArray(value)) {
      for (const issue of value as { path?: unknown; message?: unknown }[]) {
        const path = Array.isArray(issue?.path) && issue.path.length ? issue.path.join(".") : "(body)";
        lines.push(`  ${path}: ${typeof issue?.message === "string" ? issue.message : JSON.stringify(issue)}`);
      }
    } else if (key === "limit" && value && typeof value === "object") {
      const l = value as { name?: unknown; max?: unknown; unit?: unknown };
      lines.push(`  limit: ${String(l.name ?? "?")} at most ${String(l.max ?? "?")} ${String(l.unit ?? "")}`.trimEnd());
    } else {
      lines.push(`  ${key}: ${Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value)}`);
    }
  }
  return lines;
}

/**
 * The SDK's ApiUnreachableError (by name: this module loads before any command, so it imports no
 * package) names the URL; the CLI adds where that came from. Other errors keep their message.
 */
export function failureMessage(err: Error): string {
  return err.name === "ApiUnreachableError" ? `${err.message}; is it running? (CRUMBS_URL, else .crumbs/api-url that \`crumbs start\` wrote)` : err.message;
}

/** Whatever was thrown, the lines the user sees and the exit code. */
export function describeFailure(err: unknown): { line: string; exitCode: number } {
  if (err instanceof UsageError) return { line: formatUsageError(err), exitCode: err.exitCode };
  if (err instanceof Error && err.name === "ApiUnreachableError") return { line: `unreachable: ${failureMessage(err)}`, exitCode: 1 };
  if (err instanceof CliError) return { line: [`${err.code}: ${err.message}`, ...formatDetails(err.details)].join("\n"), exitCode: err.exitCode };
  // API answers (ApiResponseError, a CrumbsError), start-up and config errors of other packages carry a code.
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const details = (err as { details?: unknown }).details;
    return { line: [`${typeof code === "string" ? code : "error"}: ${err.message}`, ...formatDetails(details)].join("\n"), exitCode: 1 };
  }
  return { line: `error: ${String(err)}`, exitCode: 1 };
}
