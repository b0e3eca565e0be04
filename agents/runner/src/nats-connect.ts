import { connectNats, NatsCredsError } from "@crumbs/agent-sdk";
import type { NatsConnection } from "nats";
import { unreachableError } from "@crumbs/telemetry";
import { ConfigError } from "./config.ts";

const AUTH_CODES = new Set(["AUTHORIZATION_VIOLATION", "AUTHENTICATION_EXPIRED", "AUTHENTICATION_TIMEOUT"]);
const HOW = "runner.creds, written by `crumbs keys nats-init --out DIR`";

/**
 * The runner's NATS connection, with NATS_CREDS when set. A refusal is a
 * configuration problem, so it becomes a ConfigError naming NATS_CREDS
 * rather than nats.js's bare "Authorization Violation".
 */
export async function connectRunnerNats(opts: { natsUrl: string; natsCreds?: string | undefined }): Promise<NatsConnection> {
  try {
    return await connectNats(opts.natsUrl, "crumbs-runner", { creds: opts.natsCreds });
  } catch (err) {
    if (err instanceof NatsCredsError) throw new ConfigError({ variable: "NATS_CREDS", message: err.message });
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && AUTH_CODES.has(code)) {
      const why = opts.natsCreds
        ? `NATS at ${opts.natsUrl} refused the credentials in NATS_CREDS (${String(err)}): use the ${HOW} for this server`
        : `NATS at ${opts.natsUrl} requires credentials (${String(err)}): set NATS_CREDS to the ${HOW}`;
      throw new ConfigError({ variable: "NATS_CREDS", message: why });
    }
    const fix = "Start nats-server (or `crumbs start`, whose runner.creds `crumbs runner` then uses) or set NATS_URL.";
    throw unreachableError({ code: "nats_unreachable", service: "NATS", target: opts.natsUrl, variable: "NATS_URL", fix }, err) ?? err;
  }
}
