import { parseCommandArgs } from "../args.ts";
import type { Command } from "../context.ts";
import { databaseTarget, describeDatabase } from "../database.ts";
import { waitForShutdown } from "../wait-for-shutdown.ts";
import { serverLogger } from "./server-logger.ts";

const usage = `usage: crumbs api

Run the API alone, configured by the environment (what containers and replicas run):
  DATABASE_URL   Postgres (without it: embedded PGlite in CRUMBS_PGLITE_DIR, default .crumbs/pg; one process only)
  NATS_URL       NATS with JetStream (default nats://127.0.0.1:4222)
  PORT, HOST     where to listen (default 0.0.0.0:8081)
  CRUMBS_TOKEN   admin token of owner "default"
  LOG_LEVEL      info (one access line per request), warn, error, debug...; LOG_FORMAT json or pretty
Metrics: GET /metrics. Migrations are applied at start (under an advisory lock, so replicas may start together).`;

export const apiCommand: Command = {
  usage,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const logger = await serverLogger(ctx.env);
    const { loadApiConfig, startApi } = await import("@crumbs/api");
    const config = loadApiConfig(ctx.env);
    const api = await startApi({ config, logger: logger.child({ name: "api" }) });
    ctx.out(`crumbs api listening on ${api.url} (${describeDatabase(databaseTarget(config))})`);
    await waitForShutdown(ctx.shutdown);
    ctx.err("stopping...");
    await api.close();
  },
};
