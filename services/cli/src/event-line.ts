import { eventTypeShort, msgIdFor, type BreadcrumbEvent } from "@crumbs/schemas";
import { CliError } from "./errors.ts";

/** What the CLI prints and publishes of an event (docs/architecture.md, "Contracts"). */
export type EventFields = Pick<BreadcrumbEvent, "seq" | "type" | "id" | "owner" | "schema_name" | "title" | "version">;

/** One line per event: `<seq> <type> <schema_name> <id> v<version> <title>`, newlines in titles flattened. */
export function formatEventLine(e: EventFields): string {
  return `${e.seq} ${eventTypeShort(e.type)} ${e.schema_name} ${e.id} v${e.version} ${e.title.replace(/\s*[\r\n]+\s*/g, " ")}`;
}

/** Subject a replayed event is published on: `<prefix>.<owner>.<type>.<schema_name>`. */
export function replaySubject(prefix: string, e: EventFields): string {
  return `${prefix}.${e.owner}.${eventTypeShort(e.type)}.${e.schema_name}`;
}

/** Same header as the API's relay (`<id>:<version>:<type>`), so a republish into a stream is deduplicated. */
export const replayMsgId = (e: EventFields) => msgIdFor(e.id, e.version, e.type);

/** A NATS subject prefix: dot-separated tokens, no wildcards or whitespace. */
export function validateSubjectPrefix(prefix: string): string {
  if (!/^[^\s.*>]+(\.[^\s.*>]+)*$/.test(prefix)) {
    throw new CliError("usage", `invalid --publish prefix "${prefix}": use dot-separated tokens without * > or spaces`, 2);
  }
  return prefix;
}
