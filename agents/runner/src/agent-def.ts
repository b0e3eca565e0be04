import { createHash } from "node:crypto";
import { agentConsumerPrefix, agentDefContextSchema } from "@crumbs/schemas";
import type { Breadcrumb } from "@crumbs/agent-sdk";
import type { z } from "zod";

export type AgentDefContext = z.infer<typeof agentDefContextSchema>;

/** A loaded agent: its definition plus where it came from. */
export interface Agent {
  /** The agent.def.v1 breadcrumb's id and version. */
  defId: string;
  defVersion: number;
  owner: string;
  updatedAt: string;
  def: AgentDefContext;
}

export type ParsedAgent = { ok: true; agent: Agent } | { ok: false; error: string };

export function parseAgentDef(b: Breadcrumb): ParsedAgent {
  if (b.schema_name !== "agent.def.v1")
    return { ok: false, error: `${b.id} is ${b.schema_name}, not agent.def.v1` };
  const parsed = agentDefContextSchema.safeParse(b.context);
  if (!parsed.success)
    return { ok: false, error: `agent.def.v1 ${b.id} is invalid: ${parsed.error.message}` };
  return {
    ok: true,
    agent: { defId: b.id, defVersion: b.version, owner: b.owner, updatedAt: b.updated_at, def: parsed.data },
  };
}

/**
 * The durable consumer of an agent. It is named after the agent, plus a short
 * hash of its filter subject: nats-server 2.9 cannot change a consumer's
 * subject in place, so a selector that narrows to a new subject gets a fresh
 * consumer (the old one is deleted), and every runner replica computes the
 * same name from the same definition.
 */
export function consumerNameFor(agent: Pick<Agent, "owner" | "def">, filterSubject: string): string {
  const h = createHash("sha256").update(filterSubject).digest("hex").slice(0, 8);
  return `${consumerPrefixFor(agent)}${h}`;
}

export function consumerPrefixFor(agent: Pick<Agent, "owner" | "def">): string {
  return agentConsumerPrefix(agent.owner, agent.def.agent_id);
}
