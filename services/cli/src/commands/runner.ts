import { access } from "node:fs/promises";
import { parseCommandArgs } from "../args.ts";
import { loadClientConfig } from "../client-config.ts";
import type { Command } from "../context.ts";
import { natsAuthDirOf, natsKeyFiles } from "../nats-key-files.ts";
import { resolveNatsUrl } from "../nats-url.ts";
import { waitForShutdown } from "../wait-for-shutdown.ts";
import { serverLogger } from "./server-logger.ts";

const usage = `usage: crumbs runner

Run the agent runner alone, configured by the environment:
  CRUMBS_URL, CRUMBS_TOKEN   the API
  NATS_URL                   NATS with JetStream (default: the one \`crumbs start\` runs here)
  NATS_CREDS                 its credentials (default: .crumbs/nats/auth/runner.creds when present)
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENROUTER_API_KEY   the model endpoints
  RUNNER_METRICS_PORT        serve GET /metrics there (unset: no metrics server); RUNNER_METRICS_HOST (0.0.0.0)
  LOG_LEVEL, LOG_FORMAT      logs on stderr (info; pretty on a terminal, json otherwise)`;

export const runnerCommand: Command = {
  usage,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const logger = await serverLogger(ctx.env);
    const { url, token } = await loadClientConfig(ctx.env, ctx.cwd);
    const natsUrl = await resolveNatsUrl(ctx.env, ctx.cwd);
    // The nats-server `crumbs start` runs here is locked: use its runner credentials unless told otherwise.
    const startCreds = natsKeyFiles(natsAuthDirOf(ctx.cwd)).runnerCreds;
    const useStartCreds = !ctx.env.NATS_URL && !ctx.env.NATS_CREDS && (await access(startCreds).then(() => true, () => false));
    const env = useStartCreds ? { ...ctx.env, NATS_CREDS: startCreds } : ctx.env;
    const { loadRunnerConfig, startRunner } = await import("@crumbs/runner");
    const runner = await startRunner({ ...loadRunnerConfig(env), crumbsUrl: url, token, natsUrl, logger: logger.child({ name: "runner" }) });
    ctx.out(`crumbs runner connected to ${url} and ${natsUrl}${runner.metricsUrl ? `; metrics on ${runner.metricsUrl}` : ""}`);
    await waitForShutdown(ctx.shutdown);
    ctx.err("stopping...");
    await runner.close();
  },
};
