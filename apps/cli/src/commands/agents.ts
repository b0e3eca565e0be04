import { parseCommandArgs } from "../args.ts";
import { agentBodyFromFile, AGENT_SCHEMA, listAgents } from "../agent-defs.ts";
import { loadClientConfig } from "../client-config.ts";
import { printJson, type Command } from "../context.ts";
import { UsageError } from "../errors.ts";
import { createHttpClient } from "../http-client.ts";
import { readJsonInput } from "../read-input.ts";

const usage = `usage: crumbs agents list [--json]
       crumbs agents apply FILE

list         the ${AGENT_SCHEMA} breadcrumbs, one line each: <agent_id> <id> v<version> <model> <title>
apply FILE   create the agent, or update the one with the same agent_id (If-Match on its version).
             FILE ("-" for stdin) holds a create body {schema_name, title, tags, context} or just the context.
The runner follows these breadcrumbs live: no restart needed.`;

export const agentsCommand: Command = {
  name: "agents",
  summary: "list or apply agent.def.v1 breadcrumbs",
  usage,
  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: "boolean" } }, usage, { min: 1, max: 2 });
    const [sub, file] = positionals;
    const http = createHttpClient(await loadClientConfig(ctx.env, ctx.cwd), ctx.fetch);
    if (sub === "list" && file === undefined) {
      const agents = await listAgents(http);
      if (values.json) return printJson(ctx, agents);
      for (const a of agents) {
        ctx.out(`${a.context.agent_id ?? "?"} ${a.id} v${a.version} ${a.context.model ?? "-"} ${a.title}`);
      }
      return;
    }
    if (sub === "apply" && file !== undefined) {
      const body = agentBodyFromFile(await readJsonInput(file, ctx.cwd, ctx.stdin));
      const existing = (await listAgents(http)).find((a) => a.context.agent_id === body.context.agent_id);
      const res = existing
        ? await http.json("PATCH", `/v1/breadcrumbs/${existing.id}`, { body, headers: { "if-match": `"${existing.version}"` } })
        : await http.json("POST", "/v1/breadcrumbs", { body: { schema_name: AGENT_SCHEMA, ...body } });
      ctx.err(`${existing ? "updated" : "created"} agent ${body.context.agent_id}`);
      return printJson(ctx, res.body);
    }
    throw new UsageError(usage);
  },
};
