import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import type { Breadcrumb, CrumbsHttp } from "@crumbs/agent-sdk";
import { CliError } from "./errors.ts";

export const AGENT_SCHEMA = "agent.def.v1";

/**
 * What the CLI reads of an agent.def.v1 breadcrumb: not its strict context type, since an agent
 * written before a field was required must still be listed (and replaced by `agents apply`).
 */
export type AgentCrumb = Breadcrumb & { context: { agent_id?: string; model?: string } };

const fileSchema = z.union([
  z.looseObject({
    schema_name: z.literal(AGENT_SCHEMA),
    title: z.string().optional(),
    tags: z.array(z.string()).optional(),
    context: z.looseObject({ agent_id: z.string().min(1) }),
  }),
  z.looseObject({ agent_id: z.string().min(1) }).transform((context) => ({ schema_name: AGENT_SCHEMA, context })),
]);

/**
 * An agent file is either a whole create body (`{schema_name: "agent.def.v1", title, tags, context}`)
 * or just the agent's context (`{agent_id, model, system_prompt, subscriptions, ...}`).
 */
export type AgentBody = { title: string; tags: string[]; context: Record<string, unknown> & { agent_id: string } };

export function agentBodyFromFile(doc: unknown): AgentBody {
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) {
    throw new CliError("invalid_request", `not an ${AGENT_SCHEMA} definition: it needs "agent_id" (in "context" for a full body)`);
  }
  const body = parsed.data;
  const title = ("title" in body && typeof body.title === "string" ? body.title : undefined) ?? `agent ${body.context.agent_id}`;
  const tags = ("tags" in body && Array.isArray(body.tags) ? (body.tags as string[]) : undefined) ?? [];
  return { title, tags, context: body.context };
}

export async function listAgents(http: CrumbsHttp): Promise<AgentCrumb[]> {
  const all: AgentCrumb[] = [];
  for await (const crumb of http.listAll({ schema_name: AGENT_SCHEMA as string })) all.push(crumb as AgentCrumb);
  return all;
}

/** Same title, same set of tags, same context (objects compared by content, not key order). */
function sameDefinition(existing: AgentCrumb, body: AgentBody): boolean {
  const tags = (t: readonly string[]) => [...new Set(t)].sort();
  return (
    existing.title === body.title &&
    isDeepStrictEqual(tags(existing.tags), tags(body.tags)) &&
    isDeepStrictEqual(existing.context, body.context)
  );
}

export type ApplyOutcome = { outcome: "created" | "updated" | "unchanged" | "kept"; crumb: Breadcrumb; version: number };

/**
 * Creates the agent, or updates the one with its agent_id (If-Match on the version read). An
 * identical definition writes nothing ("unchanged"). `keepEdited`: a different one is left as it
 * is ("kept"): `crumbs start` installs the page assistant but never undoes a user's edit.
 */
export async function applyAgent(http: CrumbsHttp, body: AgentBody, opts: { keepEdited?: boolean } = {}): Promise<ApplyOutcome> {
  const existing = (await listAgents(http)).find((a) => a.context.agent_id === body.context.agent_id);
  if (existing && (sameDefinition(existing, body) || opts.keepEdited)) {
    return { outcome: sameDefinition(existing, body) ? "unchanged" : "kept", crumb: existing, version: existing.version };
  }
  // The API checks the context against agent.def.v1 and answers with what is wrong.
  const crumb = existing
    ? await http.patch(existing.id, body, { ifMatch: existing.version })
    : await http.create({ schema_name: AGENT_SCHEMA as string, ...body });
  return { outcome: existing ? "updated" : "created", crumb, version: crumb.version };
}

export type SetModelOutcome = { outcome: "updated" | "unchanged"; crumb: Breadcrumb; previous: string | undefined };

/**
 * Points an agent at another model in place: its definition read, `model` replaced, written back
 * with If-Match on the version read, so an edit made meanwhile (the dashboard's Agents page) is
 * never overwritten: the API answers version_mismatch instead.
 */
export async function setAgentModel(http: CrumbsHttp, agentId: string, model: string): Promise<SetModelOutcome> {
  const existing = (await listAgents(http)).find((a) => a.context.agent_id === agentId);
  if (!existing) throw new CliError("not_found", `no agent "${agentId}": \`crumbs agents list\` shows the agents there are`);
  const previous = existing.context.model;
  if (previous === model) return { outcome: "unchanged", crumb: existing, previous };
  const crumb = await http.patch(existing.id, { context: { ...existing.context, model } }, { ifMatch: existing.version });
  return { outcome: "updated", crumb, previous };
}
