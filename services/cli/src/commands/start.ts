import { parseCommandArgs } from "../args.ts";
import type { Command } from "../context.ts";
import type { RunningStack } from "../stack.ts";
import { waitForShutdown } from "../wait-for-shutdown.ts";
import { serverLogger } from "./server-logger.ts";

const usage = `usage: crumbs start

The whole stack on this machine (what \`npm start\` runs); variables from ./.env are read too:
  API        PORT (default 8081); GET /metrics has the API's, the runner's and the process's series
  Postgres   DATABASE_URL, or embedded PGlite in .crumbs/pg
  NATS       NATS_URL, or a nats-server from PATH with JetStream + WebSocket in .crumbs/nats
             (port 4222 / WebSocket 9222 when free, other free ports otherwise; or CRUMBS_NATS_PORT /
             CRUMBS_NATS_WS_PORT; HTTP monitoring only on CRUMBS_NATS_MONITOR_PORT), locked:
             operator/account JWTs with keys made once in .crumbs/nats/auth (as docker compose);
             the runner uses runner.creds there, the extension gets credentials from the API
  token      CRUMBS_TOKEN, or a dev token generated once into .crumbs/dev-token
  URL        the API's URL goes into .crumbs/api-url: client commands run from this directory use
             it and the dev token without CRUMBS_URL or CRUMBS_TOKEN
  runner     the agent runner; a model needs OPENROUTER_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL
  agent      the page assistant (agents/definitions/page-assistant.json) is installed when missing;
             an edited one is kept; CRUMBS_DEFAULT_AGENT=off installs nothing
  logs       on stderr: LOG_FORMAT (pretty on a terminal, json otherwise), LOG_LEVEL (warn
             when pretty, info when json: the access log)
Ctrl-C stops everything, including the nats-server it started.`;

function agentLines(s: RunningStack): string[] {
  const a = s.agent;
  if (a.state === "off") return ["  agent            none installed (CRUMBS_DEFAULT_AGENT=off)"];
  const how = {
    created: `installed from ${a.file}`,
    unchanged: `as in ${a.file}`,
    kept: `your edited version, kept; \`npx crumbs agents apply ${a.file}\` resets it`,
  }[a.state];
  return [
    `  agent            ${a.agentId} v${a.version} (${how}; CRUMBS_DEFAULT_AGENT=off skips it)`,
    a.missingModel ? `  model            ${a.model}: NOT CONFIGURED. ${a.missingModel}` : `  model            ${a.model}`,
  ];
}

export function banner(s: RunningStack, dotEnv: readonly string[] = []): string[] {
  const lines = [
    "crumbs is running",
    `  API              ${s.apiUrl}`,
    `  dashboard        ${s.apiUrl}/ui/ (log in with the token below)`,
    `  metrics          ${s.apiUrl}/metrics`,
    `  database         ${s.database}`,
    `  NATS             ${s.natsUrl}${s.natsPid ? ` (nats-server pid ${s.natsPid})` : ""}`,
  ];
  if (s.natsWsUrl) lines.push(`  NATS WebSocket   ${s.natsWsUrl}`);
  if (s.natsMonitorUrl) lines.push(`  NATS monitoring  ${s.natsMonitorUrl} (nats-top, NUI)`);
  if (s.natsAuthDir) lines.push(`  NATS auth        locked; keys in ${s.natsAuthDir} (runner.creds for NATS_CREDS)`);
  if (dotEnv.length) lines.push(`  .env             ${dotEnv.join(", ")}`);
  const from = { CRUMBS_TOKEN: "from CRUMBS_TOKEN", created: "new, saved in .crumbs/dev-token", reused: "from .crumbs/dev-token" };
  const chat = {
    schema_name: "chat.message.v1",
    title: "hello",
    tags: ["user:message", "session:first-chat"],
    context: { role: "user", content: "Hello! What can you do?", session_id: "first-chat" },
  };
  lines.push(
    `  token            ${s.token} (${from[s.tokenSource]})`,
    `  agent runner     ${s.runner}`,
    ...agentLines(s),
    "",
    "Try it: a first chat message, then the agent's answer:",
    `  curl -s -X POST ${s.apiUrl}/v1/breadcrumbs -H 'authorization: Bearer ${s.token}' -H 'content-type: application/json' \\`,
    `    -d '${JSON.stringify(chat)}'`,
    "  npx crumbs list --schema agent.response.v1",
    "",
    "Ctrl-C to stop.",
  );
  return lines;
}

export const startCommand: Command = {
  usage,
  async run(args, ctx) {
    parseCommandArgs(args, {}, usage);
    const logger = await serverLogger(ctx.env);
    const { startStack } = await import("../stack.ts");
    const stack = await startStack(ctx.env, ctx.cwd, ctx.err, { logger });
    for (const line of banner(stack, ctx.dotEnv)) ctx.out(line);
    const stopped = waitForShutdown(ctx.shutdown).then(() => "");
    const reason = await Promise.race([stopped, stack.failed]);
    ctx.err(reason ? `${reason}; stopping` : "stopping...");
    await stack.close();
    ctx.err("stopped");
    return reason ? 1 : 0;
  },
};
