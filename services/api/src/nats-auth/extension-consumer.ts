import { assertSubjectToken } from "./subject-token.ts";

/**
 * The names an extension's credentials are bound to. The extension computes
 * the same ones (extension/src/background/bus/action-loop.ts): they are part
 * of the NATS contract, not a detail of either side.
 */
export const EXTENSION_STREAM = "CRUMBS";

/**
 * No "-": the durable name joins the owner (which may hold "-") and the
 * extension id with one, and must not be ambiguous. Owner "team" asking for
 * id "x-abc" would otherwise get the durable of owner "team-x"'s extension
 * "abc", and could pull that owner's actions.
 */
export const EXTENSION_ID_PATTERN = /^[A-Za-z0-9_]{1,64}$/;

export function assertExtensionId(id: string): string {
  if (!EXTENSION_ID_PATTERN.test(id)) throw new Error(`extension id "${id}" is not 1-64 of A-Z a-z 0-9 _`);
  return id;
}

/**
 * Per owner and extension: a published extension has the same id in every
 * browser, so a name from the id alone would be one durable shared by owners.
 */
export const extensionConsumerName = (owner: string, extensionId: string) =>
  `crumbs-ext-${assertSubjectToken(owner)}-${assertExtensionId(extensionId)}`;

export const extensionActionSubject = (owner: string) => `crumbs.${assertSubjectToken(owner)}.created.browser.action.v1`;

/**
 * The extension's request inbox (nats.ws `inboxPrefix`). Not `_INBOX.>`: the
 * API's and runner's replies, which carry every owner's events, travel there.
 */
export const extensionInboxPrefix = (owner: string) => `_INBOX_${assertSubjectToken(owner)}`;
