import { eventTypeShort, type BreadcrumbEvent } from "@crumbs/schemas";
import { isReplayPrefix } from "@crumbs/agent-sdk";
import { CliError } from "./errors.ts";

/** What the CLI prints and publishes of an event (docs/architecture.md, "Contracts"). */
export type EventFields = Pick<BreadcrumbEvent, "seq" | "type" | "id" | "owner" | "schema_name" | "title" | "version">;

/** One line per event: `<seq> <type> <schema_name> <id> v<version> <title>`, newlines in titles flattened. */
export function formatEventLine(e: EventFields): string {
  return `${e.seq} ${eventTypeShort(e.type)} ${e.schema_name} ${e.id} v${e.version} ${e.title.replace(/\s*[\r\n]+\s*/g, " ")}`;
}

// What the CLI publishes is the SDK's replay publish: one definition of its subject and msg id.
export { replayMsgId, replaySubject } from "@crumbs/agent-sdk";

/** A NATS subject prefix: dot-separated tokens, no wildcards or whitespace. */
export function validateSubjectPrefix(prefix: string): string {
  if (!isReplayPrefix(prefix)) {
    throw new CliError("usage", `invalid --publish prefix "${prefix}": use dot-separated tokens without * > or spaces`, 2);
  }
  return prefix;
}
