import { z } from "zod";
import { CliError } from "./errors.ts";
import type { HttpClient } from "./http-client.ts";

export const AGENT_SCHEMA = "agent.def.v1";

const agentCrumbSchema = z.looseObject({
  id: z.string(),
  version: z.number(),
  title: z.string(),
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
export function agentBodyFromFile(doc: unknown): { title: string; tags: string[]; context: Record<string, unknown> & { agent_id: string } } {
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
