// The names on NATS every crumbs process shares: the stream, the subject layout, and the names an
// extension's durable consumer and inbox use. No imports, so the extension's bundle can take them
// alone (`@crumbs/schemas/nats-names`). Subjects: `crumbs.<owner>.<created|updated|deleted>.<schema_name>`.

export const STREAM_NAME = "CRUMBS";
export const SUBJECT_PREFIX = "crumbs";
export const STREAM_SUBJECTS = [`${SUBJECT_PREFIX}.>`];

export const EVENT_TYPES_SHORT = ["created", "updated", "deleted"] as const;
export type EventTypeShort = (typeof EVENT_TYPES_SHORT)[number];

/** Every event of one owner. */
export const ownerSubjects = (owner: string) => `${SUBJECT_PREFIX}.${owner}.>`;

/** Where the actions addressed to an owner's browsers are published. */
export const extensionActionSubject = (owner: string) => `${SUBJECT_PREFIX}.${owner}.created.browser.action.v1`;

/**
 * An extension's durable consumer, per owner and extension: a published extension has the same id
 * in every browser, so a name from the id alone would be one durable shared by owners. The API
 * binds an extension's NATS credentials to exactly this name.
 */
export const extensionConsumerName = (owner: string, extensionId: string) => `crumbs-ext-${owner}-${extensionId}`;
