import { SUBJECT_PREFIX } from "@crumbs/schemas";

/**
 * The copy of each event that feeds the owners' accounts (docs/architecture.md, "One account per
 * owner"). The relay publishes every event twice: on `crumbs.<owner>.<type>.<schema>` to the main
 * stream, guarded by `Nats-Expected-Last-Msg-Id`, and on `crumbs-owner.<owner>.<type>.<schema>`
 * without that guard. An owner's account imports its part of the second as `crumbs.<owner>.>`,
 * where its own CRUMBS stream stores it. The guard has to stay off the copy: it names the main
 * stream's last message, which an owner's stream that holds only its owner's events never has, so
 * every event that follows another owner's would be refused there.
 */
export const OWNER_FEED_PREFIX = `${SUBJECT_PREFIX}-owner`;

/** `crumbs.A.created.x` -> `crumbs-owner.A.created.x`. */
export const ownerFeedSubject = (eventSubject: string) => `${OWNER_FEED_PREFIX}${eventSubject.slice(SUBJECT_PREFIX.length)}`;
