import { z } from "zod";
import { breadcrumbSchema } from "./breadcrumb.ts";
import { InvalidRequestError } from "./errors.ts";
import { looksLikeReferenceEvent } from "./reference-event.ts";
import { isoTimeSchema, OWNER_PATTERN, ownerSchema, SCHEMA_NAME_PATTERN, schemaNameSchema, tagSchema } from "./names.ts";

import { EVENT_TYPES_SHORT, SUBJECT_PREFIX, type EventTypeShort } from "./nats-names.ts";

export * from "./nats-names.ts";

/**
 * NATS_URL names one server or, for a cluster, several separated by commas
 * (`nats://a:4222,nats://b:4222`). Every crumbs process splits it the same way; once
 * connected, clients also learn the cluster's other members from the server itself.
 */
export function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** One server of NATS_URL: a nats://, tls://, ws:// or wss:// URL without spaces. */
const NATS_SERVER_URL = /^(nats|tls|wss?):\/\/\S+$/;

/**
 * What is wrong with a NATS_URL, or undefined when every server in it is a NATS URL. The API, the
 * runner and the CLI check it with this one rule, so a value one accepts the others accept too.
 */
export function natsUrlProblem(url: string): string | undefined {
  const servers = natsServers(url);
  if (servers.length === 0) return "a NATS URL such as nats://127.0.0.1:4222 (several: comma-separated)";
  const bad = servers.find((s) => !NATS_SERVER_URL.test(s));
  return bad === undefined ? undefined : `"${bad}" is not a NATS URL such as nats://127.0.0.1:4222`;
}

/** Where a crumbs process finds NATS when NATS_URL is unset: the local server `crumbs start` and the machine setup run. */
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";

/** NATS_URL as the API's and the runner's configs read it: natsUrlProblem's rule, DEFAULT_NATS_URL when unset. */
export const natsUrlSetting = z
  .string()
  .superRefine((url, ctx) => {
    const problem = natsUrlProblem(url);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .default(DEFAULT_NATS_URL);

/**
 * How every long-lived crumbs connection to NATS (the API's, the SDK's) rides out an outage: it
 * reconnects forever, a quarter second apart, and pings every 10 s so a dead server is noticed.
 */
export const NATS_RECONNECT = { maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 10_000 } as const;

/**
 * `GET /v1/events` streamed: with this Accept, one event's JSON a line and a closing line
 * `{"next_after","has_more"}`, up to EVENTS_STREAM_MAX_EVENTS events (services/api README, "Replay").
 */
export const EVENTS_NDJSON = "application/x-ndjson";
export const EVENTS_STREAM_MAX_EVENTS = 100_000;
/** The largest `limit` of a JSON page of `GET /v1/events`, and the rows of each step of a streamed answer. */
export const EVENTS_PAGE_MAX_EVENTS = 1_000;

export const EVENT_TYPES = ["breadcrumb.created", "breadcrumb.updated", "breadcrumb.deleted"] as const;
export const eventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof eventTypeSchema>;

export const breadcrumbEventSchema = z.object({
  seq: z.number().int().positive(),
  type: eventTypeSchema,
  id: z.uuid(),
  owner: ownerSchema,
  schema_name: schemaNameSchema,
  title: z.string(),
  tags: z.array(tagSchema),
  version: z.number().int().min(1),
  at: isoTimeSchema,
  /**
   * On an update applied as a merge patch: the top-level context keys whose value it changed
   * (added, removed or different), sorted. Absent on other events: any key may have changed.
   */
  changed: z.array(z.string()).optional(),
  breadcrumb: breadcrumbSchema,
});
export type BreadcrumbEvent = z.infer<typeof breadcrumbEventSchema>;

/**
 * The one event body: what the relay publishes on NATS, SSE sends as `data` and `/v1/events`
 * lists. The API's write statement builds the same JSON in SQL (it is written in the statement
 * that changes the row); a test of that statement compares its outbox payload with this.
 */
export function breadcrumbEventOf(
  seq: number,
  type: EventType | EventTypeShort,
  breadcrumb: z.infer<typeof breadcrumbSchema>,
  at: string,
): BreadcrumbEvent {
  return {
    seq,
    type: eventTypeLong(type),
    id: breadcrumb.id,
    owner: breadcrumb.owner,
    schema_name: breadcrumb.schema_name,
    title: breadcrumb.title,
    tags: breadcrumb.tags,
    version: breadcrumb.version,
    at,
    breadcrumb,
  };
}

/**
 * What the relay publishes instead of an event too large for the NATS server's
 * `max_payload`: the same subject, `Nats-Msg-Id` and fields, without `breadcrumb`.
 * Consumers fetch the breadcrumb from the API (the SDK does it for its handlers).
 */
export const breadcrumbReferenceEventSchema = breadcrumbEventSchema
  .omit({ breadcrumb: true })
  .extend({ truncated: z.literal(true) });
export type BreadcrumbReferenceEvent = z.infer<typeof breadcrumbReferenceEventSchema>;

/** The reference event standing for `event`; every field but the breadcrumb is kept. */
export function referenceEventOf<E extends { breadcrumb?: unknown }>(event: E): Omit<E, "breadcrumb"> & { truncated: true } {
  const { breadcrumb: _dropped, ...rest } = event;
  return { ...rest, truncated: true };
}

/** True for a well-formed reference event (see reference-event.ts for the light check). */
export function isReferenceEvent(payload: unknown): payload is BreadcrumbReferenceEvent {
  return looksLikeReferenceEvent(payload) && breadcrumbReferenceEventSchema.safeParse(payload).success;
}

/** `breadcrumb.updated` -> `updated`; a short type is returned as is. */
export function eventTypeShort(type: EventType | EventTypeShort): EventTypeShort {
  const short = type.startsWith("breadcrumb.") ? type.slice("breadcrumb.".length) : type;
  if (!(EVENT_TYPES_SHORT as readonly string[]).includes(short)) throw new InvalidRequestError(`unknown event type ${type}`);
  return short as EventTypeShort;
}

export function eventTypeLong(type: EventType | EventTypeShort): EventType {
  return `breadcrumb.${eventTypeShort(type)}`;
}

/** `crumbs.<owner>.<created|updated|deleted>.<schema_name>` */
export function subjectFor(owner: string, type: EventType | EventTypeShort, schemaName: string): string {
  if (!OWNER_PATTERN.test(owner)) throw new InvalidRequestError(`owner ${JSON.stringify(owner)} is not a valid subject token`);
  if (!SCHEMA_NAME_PATTERN.test(schemaName) || schemaName.length > 200) {
    throw new InvalidRequestError(`schema name ${JSON.stringify(schemaName)} is not valid`);
  }
  return `${SUBJECT_PREFIX}.${owner}.${eventTypeShort(type)}.${schemaName}`;
}

/** The `Nats-Msg-Id` header value, so that a republish of the same change is deduplicated. */
export function msgIdFor(id: string, version: number, type: EventType | EventTypeShort): string {
  return `${id}:${version}:${eventTypeShort(type)}`;
}

/** Splits a subject back into its parts; undefined when it is not a crumbs event subject. */
export function parseSubject(subject: string): { owner: string; type: EventTypeShort; schema_name: string } | undefined {
  const parts = subject.split(".");
  if (parts.length < 4 || parts[0] !== SUBJECT_PREFIX) return undefined;
  const [, owner, type] = parts;
  const schema_name = parts.slice(3).join(".");
  if (!owner || !OWNER_PATTERN.test(owner) || !(EVENT_TYPES_SHORT as readonly string[]).includes(type!)) return undefined;
  if (!SCHEMA_NAME_PATTERN.test(schema_name)) return undefined;
  return { owner, type: type as EventTypeShort, schema_name };
}
