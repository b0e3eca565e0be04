// Light on purpose (no breadcrumb schema, no engines), so the extension's worker can import it
// through `@crumbs/schemas/reference-event`; events.ts builds the full zod schema on top.

/**
 * A reference event: what the relay publishes instead of an event larger than the NATS
 * server's max_payload. Every field of the event but `breadcrumb`, plus `truncated: true`.
 */
export interface ReferenceEventFields {
  seq: number;
  type: string;
  id: string;
  version: number;
  truncated: true;
}

/** True when a NATS payload is a reference event: `truncated: true`, an id, and no breadcrumb. */
export function looksLikeReferenceEvent(payload: unknown): payload is ReferenceEventFields {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false;
  const p = payload as Record<string, unknown>;
  return p.truncated === true && !("breadcrumb" in p) && typeof p.id === "string";
}
