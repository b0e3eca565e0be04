import { causeChain } from "./errors.ts";

/**
 * A process that cannot start says what it could not do, which variable points there and how to
 * fix it, instead of a driver's bare `CONNECTION_REFUSED` (README, "Environment").
 */
export class StartupError extends Error {
  constructor(
    readonly code: string,
    /** The environment variable that decides what failed. */
    readonly variable: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StartupError";
  }
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  CONNECTION_REFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  ETIMEDOUT: "timed out",
  TIMEOUT: "timed out",
  CONNECT_TIMEOUT: "timed out",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EADDRINUSE: "the port is in use by another process",
  EACCES: "permission denied",
  EADDRNOTAVAIL: "no such address on this machine",
};

/** A network failure in words ("connection refused"), or undefined when the error is no such failure. */
export function networkReason(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const code = e && typeof e === "object" ? (e as { code?: unknown }).code : undefined;
    if (typeof code === "string" && REASONS[code]) return REASONS[code];
  }
  return undefined;
}

/**
 * `cannot reach NATS at nats://127.0.0.1:1 (NATS_URL): connection refused. Start nats-server or
 * set NATS_URL.` when `err` is a network failure; undefined otherwise (the caller rethrows it).
 */
export function unreachableError(
  what: { code: string; service: string; target: string; variable: string; fix: string },
  err: unknown,
): StartupError | undefined {
  const reason = networkReason(err);
  if (!reason) return undefined;
  return new StartupError(what.code, what.variable, `cannot reach ${what.service} at ${what.target} (${what.variable}): ${reason}. ${what.fix}`, {
    cause: err,
  });
}

/** A URL for a message: the password replaced, never printed. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}
