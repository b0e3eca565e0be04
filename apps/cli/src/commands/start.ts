import { parseCommandArgs } from "../args.ts";
import type { Command } from "../context.ts";
import { waitForShutdown } from "../wait-for-shutdown.ts";
import { startStack, type RunningStack } from "../stack.ts";

const usage = `usage: crumbs start

The whole stack on this machine (what \`npm start\` runs):
  API        PORT (default 8081)
  Postgres   DATABASE_URL, or embedded PGlite in .crumbs/pg
  NATS       NATS_URL, or a nats-server from PATH with JetStream + WebSocket in .crumbs/nats
             (port 4222 / WebSocket 9222 when free, other free ports otherwise; or
             CRUMBS_NATS_PORT / CRUMBS_NATS_WS_PORT), locked:
             operator/account JWTs with keys made once in .crumbs/nats/auth (as docker compose);
             the runner uses runner.creds there, the extension gets credentials from the API
  token      CRUMBS_TOKEN, or a dev token generated once into .crumbs/dev-token
  runner     the agent runner, when @crumbs/runner provides one
Ctrl-C stops everything, including the nats-server it started.`;

export function banner(s: RunningStack): string[] {
  const lines = [
    "crumbs is running",
    `  API              ${s.apiUrl}`,
    `  dashboard        ${s.apiUrl}/ui/ (log in with the token below)`,
    `  database         ${s.database}`,
    `  NATS             ${s.natsUrl}${s.natsPid ? ` (nats-server pid ${s.natsPid})` : ""}`,
  ];
  if (s.natsWsUrl) lines.push(`  NATS WebSocket   ${s.natsWsUrl}`);
  if (s.natsAuthDir) lines.push(`  NATS auth        locked; keys in ${s.natsAuthDir} (runner.creds for NATS_CREDS)`);
  const from = { CRUMBS_TOKEN: "from CRUMBS_TOKEN", created: "new, saved in .crumbs/dev-token", reused: "from .crumbs/dev-token" };
  lines.push(
    `  token            ${s.token} (${from[s.tokenSource]})`,
    `  agent runner     ${s.runner}`,
    "",
    "Try it:",
    `  curl -s -X POST ${s.apiUrl}/v1/breadcrumbs -H 'authorization: Bearer ${s.token}' -H 'content-type: application/json' \\`,
    `    -d '{"schema_name":"note.v1","title":"hello","context":{"text":"first crumb"}}'`,
    `  CRUMBS_URL=${s.apiUrl} npx crumbs tail`,
    "",
    "Ctrl-C to stop.",
  );
  return lines;
}

export const startCommand: Command = {
  name: "start",
  summary: "run the whole stack here (API, database, NATS, runner)",
  usage,
  longRunning: true,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const stack = await startStack(ctx.env, ctx.cwd, ctx.err);
    for (const line of banner(stack)) ctx.out(line);
    const stopped = waitForShutdown(ctx.shutdown).then(() => "");
    const reason = await Promise.race([stopped, stack.failed]);
    ctx.err(reason ? `${reason}; stopping` : "stopping...");
    await stack.close();
    ctx.err("stopped");
    return reason ? 1 : 0;
  },
};
