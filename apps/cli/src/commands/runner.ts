import { access } from "node:fs/promises";
import { parseCommandArgs } from "../args.ts";
import { natsAuthDirOf } from "../stack.ts";
import { natsKeyFiles } from "./keys-nats.ts";
import { loadClientConfig } from "../client-config.ts";
import type { Command } from "../context.ts";
import { resolveNatsUrl } from "../nats-url.ts";
import { loadRunnerConfig, startRunner } from "@crumbs/runner";
import { waitForShutdown } from "../wait-for-shutdown.ts";

const usage = `usage: crumbs runner

Run the agent runner alone, configured by the environment:
  CRUMBS_URL, CRUMBS_TOKEN   the API
  NATS_URL                   NATS with JetStream (default: the one \`crumbs start\` runs here)
  NATS_CREDS                 its credentials (default: .crumbs/nats/auth/runner.creds when present)
  OPENAI_BASE_URL, OPENAI_API_KEY, OPENROUTER_API_KEY   the model endpoints`;

export const runnerCommand: Command = {
  name: "runner",
  summary: "run the agent runner only, configured by environment",
  usage,
  longRunning: true,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const { url, token } = await loadClientConfig(ctx.env, ctx.cwd);
    const natsUrl = await resolveNatsUrl(ctx.env, ctx.cwd);
    // The nats-server `crumbs start` runs here is locked: use its runner credentials unless told otherwise.
    const startCreds = natsKeyFiles(natsAuthDirOf(ctx.cwd)).runnerCreds;
    const useStartCreds = !ctx.env.NATS_URL && !ctx.env.NATS_CREDS && (await access(startCreds).then(() => true, () => false));
    const env = useStartCreds ? { ...ctx.env, NATS_CREDS: startCreds } : ctx.env;
    const runner = await startRunner({ ...loadRunnerConfig(env), crumbsUrl: url, token, natsUrl });
    ctx.out(`crumbs runner connected to ${url} and ${natsUrl}`);
    await waitForShutdown(ctx.shutdown);
    ctx.err("stopping...");
    await runner.close();
  },
};
