import { causeChain, isConnectionFailureCode } from "@crumbs/telemetry";

// Which failures mean "this client's connections can no longer be trusted": the connection-failure
// codes of @crumbs/telemetry, which the HTTP layer also answers with 503 + Retry-After, so errors we
// raise ourselves carry one of those codes too.

/** A failure of the connection itself, raised by this layer (deadline passed, driver fault). */
export class DatabaseConnectionError extends Error {
  constructor(
    /** ETIMEDOUT for a missed deadline, 08006 (connection_failure) for a driver fault. */
    readonly code: "ETIMEDOUT" | "08006" | "CONNECTION_CLOSED" | "CONNECTION_ENDED",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Our client-side deadline passed on a query (ETIMEDOUT → 503). Unlike
 * DatabaseConnectionError it retires the client: a query that never answers
 * means a stuck connection.
 */
export class QueryDeadlineError extends DatabaseConnectionError {
  constructor(ms: number) {
    super("ETIMEDOUT", `Postgres did not answer within ${ms} ms`);
  }
}

/**
 * Postgres cancelled a statement that ran past `statement_timeout` (57014).
 * The connection is fine, the server is busy: 503 + Retry-After (the HTTP
 * layer maps ETIMEDOUT) instead of a 500, and the client is kept.
 */
export class StatementTimeoutError extends Error {
  readonly code = "ETIMEDOUT";
  constructor(cause: unknown) {
    super("the statement ran past statement_timeout", { cause });
    this.name = new.target.name;
  }
}

/**
 * postgres-js 3.4.9 dereferences a null socket in `nextWrite` when a write is
 * queued on a connection whose socket already closed (porsager/postgres#1154,
 * #1208; fixes in the open PRs #1168, #1209). Recognised by its stack frame so
 * nothing else is ever mistaken for it.
 */
export function isDriverWriteFault(err: unknown): boolean {
  if (!(err instanceof TypeError) || typeof err.stack !== "string") return false;
  return /\bnextWrite \(.*[\\/]postgres[\\/](?:cjs[\\/])?src[\\/]connection\.js:\d+/.test(err.stack);
}

/** True when the error (or a cause, through drizzle's DrizzleQueryError) says the connection is gone or stuck. */
export function isConnectionFailure(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e instanceof StatementTimeoutError) return false;
    if (e instanceof DatabaseConnectionError || isDriverWriteFault(e)) return true;
    const code = e && typeof e === "object" ? (e as { code?: unknown }).code : undefined;
    if (typeof code === "string" && isConnectionFailureCode(code)) return true;
  }
  return false;
}

/**
 * Gives driver failures the HTTP layer would answer with 500 a code it maps
 * to 503: the driver's TypeError (08006), a statement timeout (ETIMEDOUT).
 */
export function asServiceError(err: unknown): unknown {
  if (isDriverWriteFault(err)) {
    return new DatabaseConnectionError("08006", "the database connection failed", { cause: err });
  }
  const e = err as { code?: unknown; message?: unknown };
  if (e?.code === "57014" && typeof e.message === "string" && e.message.includes("statement timeout")) {
    return new StatementTimeoutError(err);
  }
  return err;
}
