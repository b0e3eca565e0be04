import {
  extensionActionSubject,
  extensionConsumerName,
  extensionInboxPrefix,
  EXTENSION_STREAM,
} from "./extension-consumer.ts";
import { ownerSubjects, STREAM_SUBJECTS, SUBJECT_PREFIX } from "@crumbs/schemas";
import { assertSubjectToken } from "./subject-token.ts";

const ALL_EVENTS = STREAM_SUBJECTS[0]!;

export { assertSubjectToken, OWNER_PATTERN } from "./subject-token.ts";

export interface SubjectPermissions {
  pub: string[];
  sub: string[];
}

/** The API: publishes every owner's events, manages the stream, listens for wake-ups. */
export const apiPermissions = (): SubjectPermissions => ({
  pub: [ALL_EVENTS, "$JS.API.>", "_INBOX.>"],
  sub: [ALL_EVENTS, "_INBOX.>"],
});

/** The runner: durable consumers on the stream for every owner's agents; writes go through the HTTP API. */
export const runnerPermissions = (): SubjectPermissions => ({
  pub: ["$JS.API.>", "$JS.ACK.>", "_INBOX.>"],
  sub: [ALL_EVENTS, "_INBOX.>"],
});

export type OwnerClient = { kind: "agent" } | { kind: "extension"; extensionId: string };

/**
 * An owner's client: core subscribe to its own events, nothing to publish on
 * `crumbs.>` (writes go through the HTTP API, which checks the token's owner).
 * Never granted: `_INBOX.>` (the API's and runner's JetStream replies carry
 * every owner's events) and the JetStream API beyond the subjects below.
 *
 * An agent gets its owner's whole stream as core subscriptions; replay goes
 * through `GET /v1/events`.
 *
 * An extension gets its action and chat-answer subjects, plus exactly what its
 * one durable pull consumer needs. The create subject carries the filter
 * (nats-server 2.9's `$JS.API.CONSUMER.CREATE.<stream>.<name>.<filter>`): the
 * server refuses a request whose filter_subject differs from the subject's, so
 * the permission binds the consumer to this owner's actions. INFO, MSG.NEXT and
 * ACK name the durable, which carries the owner. Not granted: `$JS.API.INFO`
 * (nats.ws skips it with `checkAPI: false`), the legacy
 * `CONSUMER.DURABLE.CREATE` (no filter in the subject; nats.ws uses the new
 * API on 2.9+), delete, stream and account calls.
 */
export function ownerPermissions(owner: string, client: OwnerClient = { kind: "agent" }): SubjectPermissions {
  assertSubjectToken(owner);
  if (client.kind === "agent") return { pub: [], sub: [ownerSubjects(owner)] };
  const durable = extensionConsumerName(owner, client.extensionId);
  const api = "$JS.API.CONSUMER";
  return {
    pub: [
      `${api}.CREATE.${EXTENSION_STREAM}.${durable}.${extensionActionSubject(owner)}`,
      `${api}.INFO.${EXTENSION_STREAM}.${durable}`,
      `${api}.MSG.NEXT.${EXTENSION_STREAM}.${durable}`,
      `$JS.ACK.${EXTENSION_STREAM}.${durable}.>`,
    ],
    sub: [`${SUBJECT_PREFIX}.${owner}.*.browser.action.v1`, `${SUBJECT_PREFIX}.${owner}.*.agent.response.v1`, `${extensionInboxPrefix(owner)}.>`],
  };
}
