import { connectNats, connectWithToken, NatsCredsError, type CrumbsHttp, type TokenNats } from "@crumbs/agent-sdk";
import type { NatsConnection } from "nats";
import { CliError } from "./errors.ts";

/** nats.js's error codes (NatsError.code) for a refusal, as opposed to a server that cannot be reached. */
const isCode = (err: unknown, code: string) => (err as { code?: unknown } | undefined)?.code === code;
const isAuthError = (err: unknown) =>
  isCode(err, "AUTHORIZATION_VIOLATION") || isCode(err, "AUTHENTICATION_EXPIRED") || isCode(err, "ACCOUNT_EXPIRED");

/** The one line for a publish the NATS server refused, with the fix. */
export function publishRefused(subject: string, prefix: string): CliError {
  return new CliError(
    "nats_forbidden",
    `NATS refused these credentials to publish on ${subject} (Permissions Violation): an owner's credentials publish ` +
      `replays on <prefix>.<owner>.> with a one-token prefix other than "crumbs", e.g. --publish replay` +
      (prefix === "crumbs" ? "" : `; for another owner's subjects set NATS_CREDS to credentials that may publish there`),
  );
}

/**
 * The NATS connection for `replay --publish`: `NATS_CREDS` when set (with `NATS_URL` or the
 * `crumbs start` server), else credentials the API mints for the token's owner (renewed while the
 * replay runs), else, when the API mints none (an open dev server), no credentials. A refusal is
 * named as one, with the fix, never as an unreachable server.
 */
export async function openReplayNats(
  http: CrumbsHttp,
  opts: { natsUrl: string | undefined; natsCreds: string | undefined },
): Promise<{ nc: NatsConnection; session?: TokenNats }> {
  const where = opts.natsUrl ?? "the API's NATS servers";
  try {
    if (opts.natsCreds) {
      if (!opts.natsUrl) throw new CliError("no_nats_url", "set NATS_URL (for example nats://127.0.0.1:4222) to publish with NATS_CREDS");
      return { nc: await connectNats(opts.natsUrl, "crumbs-replay", { creds: opts.natsCreds }) };
    }
    try {
      const session = await connectWithToken(http, { natsUrl: opts.natsUrl, name: "crumbs-replay" });
      return { nc: session.nc, session };
    } catch (err) {
      // 503 from the API: it mints no NATS credentials (no account seed), as with an open server.
      if ((err as { status?: unknown }).status !== 503 || !opts.natsUrl) throw err;
      return { nc: await connectNats(opts.natsUrl, "crumbs-replay") };
    }
  } catch (err) {
    if (err instanceof CliError || (err as { status?: unknown }).status !== undefined) throw err;
    if (err instanceof NatsCredsError) throw new CliError(err.code, `${err.message} (NATS_CREDS)`);
    if (isAuthError(err)) {
      throw new CliError(
        "nats_unauthorized",
        `NATS at ${where} refused the credentials (${(err as Error).message}): ` +
          (opts.natsCreds
            ? "NATS_CREDS is not valid for this server; unset it to publish with your token's owner credentials"
            : "the API's credentials were refused; check that the API and NATS share one account (SECURITY.md, NATS)"),
      );
    }
    throw new CliError("nats_unreachable", `cannot connect to NATS at ${where}: ${(err as Error).message}`);
  }
}
