/**
 * An event's JSON text from its history row, as SQL: the text the write statement kept with the row
 * (migration 0012), or, for a row written before, the same text built by the same SQL function. The
 * one place an event's bytes come from: /v1/events and SSE send it, and the relay publishes it (the
 * outbox row names its history row's seq and holds no copy, migration 0013). `h` qualifies the
 * columns where the history table is joined ("" where it is the only table).
 */
export function eventJsonOf(h = ""): string {
  const c = (name: string) => (h ? `${h}.${name}` : name);
  return `coalesce(${c("event_json")}, crumbs_event_json(${["seq", "event", "breadcrumb_id", "owner", "schema_name", "version", "at", "changed", "breadcrumb"].map(c).join(", ")}))`;
}
