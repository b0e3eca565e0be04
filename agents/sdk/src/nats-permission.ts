/**
 * A publish or subscription the NATS server refused these credentials (PERMISSIONS_VIOLATION). It
 * is never retried: the same credentials are refused again, so the message names the fix.
 *
 * The server drops a refused publish and a refused subscription and says so only on the
 * connection (`-ERR 'Permissions Violation for Subscription to "..."'`); nats.js hands that to a
 * request waiting on the subject or to the subscription, as a NatsError with no hint of a cause.
 * The SDK turns it into this error where the call was made (subscribe(), the loop, a publish).
 */
export class NatsPermissionError extends Error {
  override readonly name = "NatsPermissionError";
  /** The CLI's code for the same refusal. */
  readonly code = "nats_forbidden";
  readonly retryable = false;

  constructor(
    readonly operation: NatsOperation,
    /** The subject the server refused, as it named it. */
    readonly subject: string,
    /** The server's own words, e.g. `Permissions Violation for Subscription to "replay.*.>"`. */
    readonly serverText: string,
  ) {
    super(`NATS refused these credentials to ${operation === "publish" ? "publish on" : "subscribe to"} ${subject} (${serverText}): ${fixFor(operation, subject)}`);
  }
}

export type NatsOperation = "publish" | "subscribe";

/** nats.js's NatsError for a refusal, as its protocol handler builds it. */
interface NatsRefusal {
  code: "PERMISSIONS_VIOLATION";
  message: string;
  permissionContext?: { operation: string; subject: string };
}

const isRefusal = (err: unknown): err is NatsRefusal => (err as { code?: unknown } | null)?.code === "PERMISSIONS_VIOLATION";

/**
 * The NatsPermissionError for a nats.js refusal; anything else as it is. `fallback` names the
 * operation and subject when nats.js did not (it always does for the server's `-ERR` line).
 */
export function asPermissionError(err: unknown, fallback?: { operation: NatsOperation; subject: string }): unknown {
  if (err instanceof NatsPermissionError || !isRefusal(err)) return err;
  const ctx = err.permissionContext;
  const operation: NatsOperation | undefined = ctx ? (ctx.operation === "publish" ? "publish" : "subscribe") : fallback?.operation;
  const subject = ctx?.subject ?? fallback?.subject;
  if (!operation || !subject) return err;
  // nats.js keeps the server's line in the message, quotes and all: `'Permissions Violation for ...'`.
  const serverText = err.message.replace(/^'|'$/g, "").trim() || "Permissions Violation";
  return new NatsPermissionError(operation, subject, serverText);
}

/** Which credential or scope is missing for a refused subject, as one clause. */
function fixFor(operation: NatsOperation, subject: string): string {
  const tokens = subject.split(".");
  // JetStream's API, or the reply inbox its answers come to.
  if (subject.startsWith("$JS.") || subject.startsWith("_INBOX.")) {
    return (
      "these credentials may not use JetStream (an extension's reach only its own consumer): use an agent's, " +
      "which `new CrumbsClient({url, token})` mints with a key that has the subscribe scope " +
      '(POST /v1/nats/credentials {"kind":"agent"})'
    );
  }
  if (operation === "publish") {
    if (tokens[0] === "crumbs") return "events are written through the API (client.create), never published on crumbs.>";
    return "an owner's credentials publish only on <prefix>.<owner>.> with a prefix other than crumbs, e.g. replay.<owner>.>";
  }
  if (tokens[1] === "*" || tokens[1] === ">") {
    return "an owner's credentials receive only that owner's subjects: pass the owner option (a token-only CrumbsClient fills it in)";
  }
  return (
    `an owner's credentials receive only <prefix>.<owner>.>, and ${tokens[1] ?? subject} is not theirs: ` +
    "subscribe with that owner's token, or with NATS_CREDS that may read there"
  );
}
