import { redactUrl, StartupError, unreachableError } from "@crumbs/telemetry";

/**
 * What `crumbs api` prints when it cannot start: the service it could not reach, the variable that
 * points there and the fix (README, "Environment"). Anything else is rethrown as it was.
 */
export function natsStartupError(url: string, err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  if (code === "AUTHORIZATION_VIOLATION" || code === "AUTHENTICATION_EXPIRED") {
    return new StartupError(
      "nats_auth",
      "CRUMBS_NATS_ACCOUNT_SEED_FILE",
      `NATS at ${url} (NATS_URL) refused the API's credentials (${String(code)}): set CRUMBS_NATS_ACCOUNT_SEED_FILE ` +
        "to the account.seed of this server (`crumbs keys nats-init`), or NATS_CREDS to a .creds file it accepts",
      { cause: err },
    );
  }
  return (
    unreachableError(
      { code: "nats_unreachable", service: "NATS", target: url, variable: "NATS_URL", fix: "Start nats-server or set NATS_URL." },
      err,
    ) ?? err
  );
}

/** Postgres SQLSTATEs that mean "DATABASE_URL points at the wrong place or with the wrong login". */
const LOGIN_PROBLEMS: Record<string, string> = {
  "28P01": "password authentication failed",
  "28000": "the login was rejected",
  "3D000": "the database does not exist",
};

export function databaseStartupError(databaseUrl: string | undefined, err: unknown): unknown {
  if (!databaseUrl) return err; // embedded PGlite: nothing to reach
  const target = redactUrl(databaseUrl);
  const fix = "Start Postgres or set DATABASE_URL (unset, the API keeps its data in embedded PGlite).";
  const unreachable = unreachableError({ code: "postgres_unreachable", service: "Postgres", target, variable: "DATABASE_URL", fix }, err);
  if (unreachable) return unreachable;
  const code = (err as { code?: unknown; cause?: { code?: unknown } }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
  const problem = typeof code === "string" ? LOGIN_PROBLEMS[code] : undefined;
  if (!problem) return err;
  return new StartupError(
    "postgres_refused",
    "DATABASE_URL",
    `Postgres at ${target} (DATABASE_URL): ${problem} (${(err as Error).message}). Fix the user, password or database name in DATABASE_URL.`,
    { cause: err },
  );
}

export function listenStartupError(host: string, port: number, err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  const where = `${host}:${port}`;
  if (code === "EADDRINUSE") {
    return new StartupError(
      "port_in_use",
      "PORT",
      `cannot listen on ${where} (PORT): the port is in use by another process. Stop that process or set PORT to a free port (PORT=0 picks one).`,
      { cause: err },
    );
  }
  if (code === "EACCES") {
    return new StartupError("port_denied", "PORT", `cannot listen on ${where} (PORT): permission denied; ports below 1024 need privileges. Set PORT above 1023.`, {
      cause: err,
    });
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new StartupError("host_unavailable", "HOST", `cannot listen on ${where} (HOST): no such address on this machine. Set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.`, {
      cause: err,
    });
  }
  return err;
}
