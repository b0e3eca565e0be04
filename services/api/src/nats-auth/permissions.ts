import {
  extensionActionSubject,
  extensionConsumerName,
  extensionInboxPrefix,
} from "./extension-consumer.ts";
import { INTEREST_SCHEMA, STREAM_NAME, STREAM_SUBJECTS, SUBJECT_PREFIX } from "@crumbs/schemas";
import { OWNER_FEED_PREFIX } from "./owner-feed.ts";
import { assertSubjectToken } from "./subject-token.ts";

const ALL_EVENTS = STREAM_SUBJECTS[0]!;

export { assertSubjectToken, OWNER_PATTERN } from "./subject-token.ts";

export interface SubjectPermissions {
  /** Allowed subjects. */
  pub: string[];
  sub: string[];
  /** Refused even where an allowed wildcard covers them. */
  deny?: { pub: string[]; sub: string[] };
}

/** The API: publishes every owner's events (and their copies for the owners' accounts), manages the stream, listens for wake-ups. */
export const apiPermissions = (): SubjectPermissions => ({
  pub: [ALL_EVENTS, `${OWNER_FEED_PREFIX}.>`, "$JS.API.>", "_INBOX.>"],
  sub: [ALL_EVENTS, "_INBOX.>"],
});

/** The runner: durable consumers on the stream for every owner's agents; writes go through the HTTP API. */
export const runnerPermissions = (): SubjectPermissions => ({
  pub: ["$JS.API.>", "$JS.ACK.>", "_INBOX.>"],
  sub: [ALL_EVENTS, "_INBOX.>"],
});

export type OwnerClient = { kind: "agent" } | { kind: "extension"; extensionId: string };

/** JetStream API calls that would change or empty a stream the API keeps in an owner's account. */
const streamAdmin = (stream: string) =>
  ["CREATE", "UPDATE", "DELETE", "PURGE", "MSG.DELETE", "RESTORE", "PEER.REMOVE", "LEADER.STEPDOWN"].map((call) => `$JS.API.STREAM.${call}.${stream}`);

/**
 * An owner's client, a user of that owner's own account (owner-account.ts): everything it can
 * cause, the server's answers to its requests included, stays in that account, which holds only
 * its owner's events. So within the account it may use JetStream freely (durable consumers,
 * pull, ack, its own streams within the account's limits), with three exceptions:
 * - nothing on `crumbs.>`: an event there is one the API committed (the stream import brings them);
 * - no change to the `CRUMBS` stream the API keeps there (create, update, delete, purge, ...);
 * - publishes outside JetStream only on `<prefix>.<owner>.>`: the owner's replays
 *   (`<prefix>.<owner>.<type>.<schema_name>`, any one-token prefix but `crumbs`).
 *
 * An extension gets less: its action, chat-answer and page-interest subjects, plus exactly what its one durable
 * pull consumer needs. The create subject carries the filter (nats-server 2.9's
 * `$JS.API.CONSUMER.CREATE.<stream>.<name>.<filter>`): the server refuses a request whose
 * filter_subject differs from the subject's. INFO, MSG.NEXT and ACK name the durable.
 */
export function ownerPermissions(owner: string, client: OwnerClient = { kind: "agent" }): SubjectPermissions {
  assertSubjectToken(owner);
  if (client.kind === "agent") {
    const own = `*.${owner}.>`;
    return {
      pub: ["$JS.API.>", "$JS.ACK.>", "$JS.FC.>", "_INBOX.>", own],
      sub: [own, "_INBOX.>"],
      deny: { pub: [ALL_EVENTS, ...streamAdmin(STREAM_NAME)], sub: [] },
    };
  }
  const durable = extensionConsumerName(owner, client.extensionId);
  const api = "$JS.API.CONSUMER";
  return {
    pub: [
      `${api}.CREATE.${STREAM_NAME}.${durable}.${extensionActionSubject(owner)}`,
      `${api}.INFO.${STREAM_NAME}.${durable}`,
      `${api}.MSG.NEXT.${STREAM_NAME}.${durable}`,
      `$JS.ACK.${STREAM_NAME}.${durable}.>`,
    ],
    sub: [
      `${SUBJECT_PREFIX}.${owner}.*.browser.action.v1`,
      `${SUBJECT_PREFIX}.${owner}.*.agent.response.v1`,
      // Whether anyone listens for page context (the extension captures only while a lease is live).
      `${SUBJECT_PREFIX}.${owner}.*.${INTEREST_SCHEMA}`,
      `${extensionInboxPrefix(owner)}.>`,
    ],
  };
}
