import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { CliError } from "./errors.ts";
import type { HttpClient } from "./http-client.ts";

export const AGENT_SCHEMA = "agent.def.v1";

const agentCrumbSchema = z.looseObject({
  id: z.string(),
  version: z.number(),
  title: z.string(),
  tags: z.array(z.string()).optional(),
  context: z.looseObject({ agent_id: z.string().optional(), model: z.string().optional() }),
});
export type AgentCrumb = z.infer<typeof agentCrumbSchema>;
const pageSchema = z.object({ items: z.array(agentCrumbSchema), next_cursor: z.string().nullish() });

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

export async function listAgents(http: HttpClient): Promise<AgentCrumb[]> {
  const all: AgentCrumb[] = [];
  let cursor: string | undefined;
  do {
    const res = await http.json("GET", "/v1/breadcrumbs", { query: { schema_name: AGENT_SCHEMA, limit: 500, cursor } });
    const page = pageSchema.safeParse(res.body);
    if (!page.success) throw new CliError("invalid_response", `unexpected list page: ${page.error.issues[0]?.message}`);
    all.push(...page.data.items);
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

/** Same title, same set of tags, same context (objects compared by content, not key order). */
export function sameDefinition(existing: AgentCrumb, body: AgentBody): boolean {
  const tags = (t: readonly string[]) => [...new Set(t)].sort();
  return (
    existing.title === body.title &&
    isDeepStrictEqual(tags(existing.tags ?? []), tags(body.tags)) &&
    isDeepStrictEqual(existing.context, body.context)
  );
}

export type ApplyOutcome = { outcome: "created" | "updated" | "unchanged" | "kept"; crumb: unknown; version: number };

/**
 * Creates the agent, or updates the one with its agent_id (If-Match on the version read). An
 * identical definition writes nothing ("unchanged"). `keepEdited`: a different one is left as it
 * is ("kept"): `crumbs start` installs the page assistant but never undoes a user's edit.
 */
export async function applyAgent(http: HttpClient, body: AgentBody, opts: { keepEdited?: boolean } = {}): Promise<ApplyOutcome> {
  const existing = (await listAgents(http)).find((a) => a.context.agent_id === body.context.agent_id);
  if (existing && (sameDefinition(existing, body) || opts.keepEdited)) {
    return { outcome: sameDefinition(existing, body) ? "unchanged" : "kept", crumb: existing, version: existing.version };
  }
  const res = existing
    ? await http.json("PATCH", `/v1/breadcrumbs/${existing.id}`, { body, headers: { "if-match": `"${existing.version}"` } })
    : await http.json("POST", "/v1/breadcrumbs", { body: { schema_name: AGENT_SCHEMA, ...body } });
  const version = (res.body as { version?: unknown } | undefined)?.version;
  return { outcome: existing ? "updated" : "created", crumb: res.body, version: typeof version === "number" ? version : 0 };
}
