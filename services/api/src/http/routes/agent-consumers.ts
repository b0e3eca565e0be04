import { z } from "@hono/zod-openapi";
import { agentConsumerListSchema, agentConsumerStateSchema, isAgentConsumer, STREAM_NAME, type AgentConsumerState } from "@crumbs/schemas";
import { InvalidRequestError, UnavailableError } from "../../errors.ts";
import type { NatsLink } from "../../nats/connect.ts";
import { errors, json, named } from "../openapi/components.ts";
import { apiRoute, defineRoute, newRouter } from "../openapi/define.ts";

const AGENT_ID = /^[A-Za-z0-9_-]{1,200}$/;

// The list's items under their component name (the contract's list, its items named).
const ConsumerList = agentConsumerListSchema.extend({ items: z.array(named(agentConsumerStateSchema, "AgentConsumer")) });

const route = apiRoute({
  method: "get",
  path: "/{id}/consumers",
  operationId: "listAgentConsumers",
  tags: ["agents"],
  summary: "The JetStream consumers the runner keeps for an agent",
  scope: "read",
  request: { params: z.object({ id: z.string().openapi({ description: "The agent_id of an agent.def.v1" }) }) },
  responses: { 200: json(ConsumerList, "Usually one; two briefly while a selector change moves it"), ...errors(400, 503) },
});

/** nats.js types `last_active` as nanos, but nats-server sends an RFC 3339 time. */
function isoOrNull(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/**
 * `GET /v1/agents/:id/consumers`: the JetStream consumers the runner keeps for agent `:id`
 * of the caller's owner (usually one; two briefly while a selector change moves it). Read
 * scope: a consumer is this agent's only when its name and its filter subject's owner say so
 * exactly (isAgentConsumer), so neither another agent nor another owner's agents are reachable.
 */
export function agentConsumerRoutes(deps: { nats?: NatsLink }) {
  const app = newRouter();
  defineRoute(app, route, async (c, { params }) => {
    const { owner } = c.get("principal");
    const id = params.id;
    if (!AGENT_ID.test(id)) throw new InvalidRequestError("agent id must be 1-200 of A-Z a-z 0-9 _ -");
    const nats = deps.nats;
    if (!nats || !nats.connected()) throw new UnavailableError("NATS is not connected");
    const jsm = await nats.nc.jetstreamManager();
    const items: AgentConsumerState[] = [];
    for await (const ci of jsm.consumers.list(STREAM_NAME)) {
      if (!isAgentConsumer(ci.name, ci.config.filter_subject, owner, id)) continue;
      items.push({
        name: ci.name,
        filter_subject: ci.config.filter_subject ?? null,
        num_pending: ci.num_pending,
        num_ack_pending: ci.num_ack_pending,
        num_redelivered: ci.num_redelivered,
        last_delivered_stream_seq: ci.delivered.stream_seq || null,
        last_active: isoOrNull(ci.delivered.last_active),
      });
    }
    return c.json({ items });
  });
  return app;
}
