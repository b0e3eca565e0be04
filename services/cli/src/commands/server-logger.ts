import type { Logger } from "@crumbs/telemetry";

/**
 * The one logger of a `crumbs start|api|runner` process, from LOG_LEVEL and LOG_FORMAT of the
 * command's environment (.env included): stderr, pretty on a terminal, JSON otherwise. stdout
 * keeps the command's own output (the banner, "listening on").
 */
export async function serverLogger(env: NodeJS.ProcessEnv): Promise<Logger> {
  const { createLogger, logOptionsFromEnv } = await import("@crumbs/telemetry");
  return createLogger(logOptionsFromEnv(env));
}
