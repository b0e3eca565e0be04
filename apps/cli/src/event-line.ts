import { z } from "zod";
import { CliError } from "./errors.ts";

/**
 * The part of the event contract (docs/architecture.md, "Contracts") the CLI prints. Loose on purpose:
 * the whole event is passed on untouched (`--json`, `--publish`), only these fields are read.
 */
export const eventFieldsSchema = z.looseObject({
  seq: z.coerce.number().int().nonnegative(),
  type: z.enum(["breadcrumb.created", "breadcrumb.updated", "breadcrumb.deleted"]),
  id: z.string(),
  owner: z.string(),
  schema_name: z.string(),
  title: z.string(),
  version: z.number().int(),
});
export type EventFields = z.infer<typeof eventFieldsSchema>;

export function parseEvent(raw: unknown): EventFields {
  const parsed = eventFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CliError("invalid_event", `the API sent an event the CLI cannot read: ${parsed.error.issues[0]?.message}`);
  }
  return parsed.data;
}

/** `breadcrumb.updated` -> `updated`, the form used in NATS subjects. */
export const shortType = (type: EventFields["type"]) => type.slice("breadcrumb.".length) as "created" | "updated" | "deleted";

/** One line per event: `<seq> <type> <schema_name> <id> v<version> <title>`, newlines in titles flattened. */
export function formatEventLine(e: EventFields): string {
  return `${e.seq} ${shortType(e.type)} ${e.schema_name} ${e.id} v${e.version} ${e.title.replace(/\s*[\r\n]+\s*/g, " ")}`;
}

/** Subject a replayed event is published on: `<prefix>.<owner>.<type>.<schema_name>`. */
export function replaySubject(prefix: string, e: EventFields): string {
  return `${prefix}.${e.owner}.${shortType(e.type)}.${e.schema_name}`;
}

/** Same header as the API's relay (`<id>:<version>:<type>`), so a republish into a stream is deduplicated. */
export const replayMsgId = (e: EventFields) => `${e.id}:${e.version}:${shortType(e.type)}`;

/** A NATS subject prefix: dot-separated tokens, no wildcards or whitespace. */
export function validateSubjectPrefix(prefix: string): string {
  if (!/^[^\s.*>]+(\.[^\s.*>]+)*$/.test(prefix)) {
    throw new CliError("usage", `invalid --publish prefix "${prefix}": use dot-separated tokens without * > or spaces`, 2);
  }
  return prefix;
}
