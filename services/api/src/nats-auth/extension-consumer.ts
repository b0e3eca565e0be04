import {
  EXTENSION_ID_PATTERN,
  extensionActionSubject as actionSubjectOf,
  extensionConsumerName as consumerNameOf,
} from "@crumbs/schemas";
import { assertSubjectToken } from "./subject-token.ts";

export { EXTENSION_ID_PATTERN };

export function assertExtensionId(id: string): string {
  if (!EXTENSION_ID_PATTERN.test(id)) throw new Error(`extension id "${id}" is not 1-64 of A-Z a-z 0-9 _`);
  return id;
}

/**
 * The names an extension's credentials are bound to, from the contract (the extension computes
 * the same ones), here checked first: an owner or id that is not a plain token never gets a name.
 */
export const extensionConsumerName = (owner: string, extensionId: string) =>
  consumerNameOf(assertSubjectToken(owner), assertExtensionId(extensionId));

export const extensionActionSubject = (owner: string) => actionSubjectOf(assertSubjectToken(owner));

/**
 * The extension's request inbox (nats.ws `inboxPrefix`). Not `_INBOX.>`: the
 * API's and runner's replies, which carry every owner's events, travel there.
 */
export const extensionInboxPrefix = (owner: string) => `_INBOX_${assertSubjectToken(owner)}`;
