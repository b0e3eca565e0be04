/**
 * Names of an agent's durable JetStream consumers. The runner creates them and the API reads
 * their state for the dashboard, so the rule lives here once. A consumer is
 * `<prefix><8 hex of sha256(filter subject)>`: the hash part stays in the runner (it needs
 * node:crypto, and this module is also bundled for browsers); readers match with isAgentConsumer.
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

/**
 * Is consumer `name` (with `filterSubject`) one of agent `agentId` of `owner`? A prefix alone is
 * ambiguous: agent `a`'s prefix starts agent `a_b`'s names, and owner `o_x`'s agent `y` has the
 * same prefix as owner `o`'s agent `x_y`. So the name is the prefix and exactly the 8 hex of the
 * hash, and the filter subject's owner token (the runner always fixes it) is the owner itself.
 */
export function isAgentConsumer(name: string, filterSubject: string | null | undefined, owner: string, agentId: string): boolean {
  const prefix = agentConsumerPrefix(owner, agentId);
  if (!name.startsWith(prefix) || !/^[0-9a-f]{8}$/.test(name.slice(prefix.length))) return false;
  return filterSubject?.split(".")[1] === owner;
}
