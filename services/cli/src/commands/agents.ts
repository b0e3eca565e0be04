import { parseCommandArgs, runSubcommand } from "../args.ts";
import { agentBodyFromFile, AGENT_SCHEMA, applyAgent, listAgents, setAgentModel } from "../agent-defs.ts";
import { apiClient, loadClientConfig } from "../client-config.ts";
import { installDefaultAgent } from "../default-agent.ts";
import { printJson, type CliContext, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";
import { readJsonInput } from "../read-input.ts";

const usage = `usage: crumbs agents list [--json]
       crumbs agents apply FILE
       crumbs agents set-model AGENT MODEL
       crumbs agents install-default

list         the ${AGENT_SCHEMA} breadcrumbs, one line each: <agent_id> <id> v<version> <model> <title>
apply FILE   create the agent, or update the one with the same agent_id (If-Match on its version);
             when title, tags and context already say the same (key order aside) it writes nothing
             and says "unchanged". FILE ("-" for stdin) holds a create body {schema_name, title, tags,
             context} or just the context.
set-model    change the model of the agent with agent_id AGENT in place (If-Match on its version):
             \`openrouter/<model>\` goes to OpenRouter (OPENROUTER_API_KEY), any other name to
             OPENAI_BASE_URL (a local OpenAI-compatible server: Ollama, llama.cpp, vLLM, LM Studio)
             or api.openai.com (OPENAI_API_KEY); the runner reads those variables.
install-default   the page assistant, as \`crumbs start\` installs it: created when missing, an agent
             with its agent_id that differs from the file is kept (your edit); CRUMBS_DEFAULT_AGENT=off
             installs nothing. docker compose's one-shot agent-init runs it.
The runner follows these breadcrumbs live: no restart needed.`;

async function list(args: string[], ctx: CliContext) {
  const { values } = parseCommandArgs(args, { json: { type: "boolean" } }, usage);
  const agents = await listAgents(await apiClient(ctx));
  if (values.json) return printJson(ctx, agents);
  for (const a of agents) ctx.out(`${a.context.agent_id ?? "?"} ${a.id} v${a.version} ${a.context.model ?? "-"} ${a.title}`);
  if (!agents.length) ctx.err("no agents yet: `crumbs agents apply FILE` adds one (agents/definitions/page-assistant.json)");
}

async function apply(args: string[], ctx: CliContext) {
  const { positionals } = parseCommandArgs(args, {}, usage, { min: 1, max: 1 });
  const body = agentBodyFromFile(await readJsonInput(positionals[0] ?? "-", ctx.cwd, ctx.stdin));
  const { outcome, crumb, version } = await applyAgent(await apiClient(ctx), body);
  ctx.err(`${outcome} agent ${body.context.agent_id} (v${version})`);
  printJson(ctx, crumb);
}

async function setModel(args: string[], ctx: CliContext) {
  const { positionals } = parseCommandArgs(args, {}, usage, { min: 2, max: 2 });
  const [agentId = "", model = ""] = positionals.map((p) => p.trim());
  if (!agentId || !model) throw new UsageError("AGENT and MODEL must not be empty", usage);
  const { outcome, crumb, previous } = await setAgentModel(await apiClient(ctx), agentId, model);
  ctx.err(
    outcome === "unchanged"
      ? `unchanged: agent ${agentId} already uses ${model} (v${crumb.version})`
      : `updated agent ${agentId} (v${crumb.version}): model ${previous ?? "(none)"} -> ${model}`,
  );
  printJson(ctx, crumb);
}

async function installDefault(args: string[], ctx: CliContext) {
  parseCommandArgs(args, {}, usage);
  const { url, token } = await loadClientConfig(ctx.env, ctx.cwd);
  // The model is the runner's business (its environment); this only writes the agent breadcrumb.
  const agent = await installDefaultAgent({ env: ctx.env, cwd: ctx.cwd, apiUrl: url, token, endpoints: {} });
  if (agent.state === "off") return ctx.err("no agent installed (CRUMBS_DEFAULT_AGENT=off)");
  const how = { created: "installed from", unchanged: "as in", kept: "your edited version kept; differs from" }[agent.state];
  ctx.err(`${agent.agentId} v${agent.version} (${how} ${agent.file})`);
}

const subcommands: Record<string, (args: string[], ctx: CliContext) => Promise<void>> = {
  list,
  apply,
  "set-model": setModel,
  "install-default": installDefault,
};

export const agentsCommand: Command = {
  usage,
  run: (args, ctx) => runSubcommand(subcommands, args, ctx, usage),
};
