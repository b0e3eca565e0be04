export interface SubjectPermissions {
  pub: string[];
  sub: string[];
}

/**
 * Owner names become one NATS subject token (`crumbs.<owner>.>`): a dot, a
 * wildcard or whitespace in one would widen every permission built from it.
 */
export const OWNER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function assertSubjectToken(owner: string): string {
  if (!OWNER_PATTERN.test(owner)) throw new Error(`owner "${owner}" is not a valid subject token`);
  return owner;
}

/** The API: publishes every owner's events, manages the stream, listens for wake-ups. */
export const apiPermissions = (): SubjectPermissions => ({
  pub: ["crumbs.>", "$JS.API.>", "_INBOX.>"],
  sub: ["crumbs.>", "_INBOX.>"],
});

/** The runner: durable consumers on the stream for every owner's agents; writes go through the HTTP API. */
export const runnerPermissions = (): SubjectPermissions => ({
  pub: ["$JS.API.>", "$JS.ACK.>", "_INBOX.>"],
  sub: ["crumbs.>", "_INBOX.>"],
});

/**
 * An owner's client (extension, custom agent): core subscribe to its own
 * events only, nothing to publish (writes go through the HTTP API, which
 * checks the token's owner). Not granted, on purpose:
 * - `_INBOX.>`: the API's and runner's JetStream replies and pull deliveries
 *   (every owner's events) travel on inbox subjects;
 * - `$JS.API.>`: in nats-server 2.9 a consumer's filter subject cannot be
 *   bound by permissions, so consumer creation would open the whole stream.
 * Replay goes through `GET /v1/events` instead.
 */
export function ownerPermissions(owner: string, kind: "agent" | "extension" = "agent"): SubjectPermissions {
  assertSubjectToken(owner);
  // The extension needs the actions addressed to it and the agents' chat answers; an agent sees the owner's whole stream.
  const sub =
    kind === "extension"
      ? [`crumbs.${owner}.*.browser.action.v1`, `crumbs.${owner}.*.agent.response.v1`]
      : [`crumbs.${owner}.>`];
  return { pub: [], sub };
}
