/**
 * Names of an agent's durable JetStream consumers. The runner creates them and the API reads
 * their state for the dashboard, so the rule lives here once. A consumer is
 * `<prefix><8 hex of sha256(filter subject)>`: the hash part stays in the runner (it needs
 * node:crypto, and this module is also bundled for browsers); readers list by prefix.
 */
export const AGENT_CONSUMER_PREFIX = "agent_";

/** Consumer names allow only these characters; anything else becomes `_`. */
export function consumerToken(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/** Every consumer of agent `agentId` of `owner` starts with this. */
export function agentConsumerPrefix(owner: string, agentId: string): string {
  return `${AGENT_CONSUMER_PREFIX}${consumerToken(owner)}_${consumerToken(agentId)}_`;
}
