// The error facts every app shares: how a cause chain is walked, which codes mean "the connection
// to a backing service failed" (so a request answers 503 and a client is retired, never a 500),
// and the one error for a bad environment.

/** How far a cause chain is followed: deeper is a cycle or a wrapper gone wrong. */
const MAX_DEPTH = 8;

/**
 * An error, then its `cause`, its cause's cause and so on (drizzle wraps the driver's error, the
 * SDK wraps fetch's). An AggregateError's own errors are walked too, right after it: a host with
 * an IPv4 and an IPv6 address that refused both throws one, and its errors say why.
 */
export function* causeChain(err: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  function* walk(e: unknown, depth: number): Generator<unknown> {
    for (; e !== null && e !== undefined && depth < MAX_DEPTH && !seen.has(e); e = (e as { cause?: unknown }).cause, depth++) {
      seen.add(e);
      yield e;
      const inner = typeof e === "object" ? (e as { errors?: unknown }).errors : undefined;
      if (Array.isArray(inner)) for (const i of inner) yield* walk(i, depth + 1);
    }
  }
  yield* walk(err, 0);
}

/** The first string `code` in the chain (a Node network code, a SQLSTATE, a driver's own code). */
export function errorCode(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const code = e && typeof e === "object" ? (e as { code?: unknown }).code : undefined;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * Codes that mean the connection itself failed or the server is going away: Node's network codes,
 * postgres-js's own, and Postgres's shutdown SQLSTATEs. SQLSTATE class 08 (connection exception) is
 * matched by prefix in isConnectionFailureCode.
 */
export const CONNECTION_FAILURE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, recovering)
]);

export function isConnectionFailureCode(code: string): boolean {
  return CONNECTION_FAILURE_CODES.has(code) || code.startsWith("08");
}

/** One bad environment variable: which, and what is wrong with it. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/**
 * A bad environment at start, in any app: every problem found, one line each
 * (`PORT: expected a number`), so one run tells the user everything to fix. Not an HTTP error:
 * the process stops with this message; `code` is what the CLI prints before it.
 */
export class ConfigError extends Error {
  readonly code = "invalid_config";
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem | readonly ConfigProblem[], options?: { cause?: unknown }) {
    const list = Array.isArray(problems) ? (problems as readonly ConfigProblem[]) : [problems as ConfigProblem];
    super(list.map((p) => `${p.variable}: ${p.message}`).join("\n"), options);
    this.name = "ConfigError";
    this.problems = list;
  }

  /** The variables named, in order. */
  get variables(): string[] {
    return this.problems.map((p) => p.variable);
  }

  /** The problems of a failed zod parse of the environment, each at its variable. */
  static fromIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): ConfigError {
    return new ConfigError(issues.map((i) => ({ variable: i.path.length > 0 ? String(i.path[0]) : "environment", message: i.message })));
  }
}
