import { sql, type SQL } from "drizzle-orm";
import { eventJsonOf } from "../store/event-json.ts";
import type { OutboxRow, ToPark } from "./batch.ts";

// The relay's SQL, once, for both stores: postgres-js runs the text as named prepared statements
// (relay-store-pg.ts), drizzle runs the same text with the same parameters (relay-store.ts).
// Every parameter is cast in the text, so both drivers bind it the same way.

/** One relay at a time publishes, which keeps the stream in seq order across replicas. */
export const RELAY_LOCK_KEY = 0x63_72_75_6d_62_72n; // "crumbr"

export interface Statement {
  text: string;
  params: unknown[];
}

/** One result row of a read: an outbox row with the batch's facts, or one row of nulls when there are none. */
export interface ReadRow {
  ok: boolean;
  /** The connection's backend: the later statements of a batch only act on the connection that holds the lock. */
  pid: number;
  /** Per owner, the oldest parked seq, as JSON text (only when rows were read). */
  held: string | null;
  seq: string | null;
  subject: string | null;
  msg_id: string | null;
  payload: string | null;
  waited_ms: number | null;
}

/**
 * The oldest outbox rows but the seqs given, with the parked owners. `$1` guards the read: the
 * batch's first read takes the relay lock (`ok` says whether it got it); a later read in the same
 * transaction reads only on the connection that holds it, and nothing on another.
 */
const read = (guard: string) => `
  with lock as (select ${guard} as ok),
  batch as (
    select o.seq, o.subject, o.msg_id, ${eventJsonOf("h")} as payload, o.created_at
    from outbox o join breadcrumb_history h on h.seq = o.seq
    where (select ok from lock) and o.seq <> all(string_to_array($2::text, ',')::bigint[])
    order by o.seq limit $3::int),
  held as (
    select jsonb_object_agg(owner, seq::text) as held
    from (select owner, min(seq) as seq from outbox_parked group by owner) p
    where exists (select 1 from batch))
  select (select ok from lock) as ok, pg_backend_pid() as pid, (select held::text from held) as held,
         r.seq::text as seq, r.subject, r.msg_id, r.payload,
         (extract(epoch from clock_timestamp() - r.created_at) * 1000)::float8 as waited_ms
  from (select 1) one left join batch r on true
  order by r.seq`;
const READ_LOCKING = read("pg_try_advisory_xact_lock($1::bigint)");
const READ_MORE = read("pg_backend_pid() = $1::int");

/** The batch's first read: takes the relay lock, then reads when it got it. */
export function readLocking(limit: number): Statement {
  return { text: READ_LOCKING, params: [RELAY_LOCK_KEY.toString(), "", limit] };
}

/** A later read of the batch (rows committed since), leaving out the seqs it read already. */
export function readMore(pid: number, limit: number, excluding: readonly string[]): Statement {
  return { text: READ_MORE, params: [pid, excluding.join(","), limit] };
}

/** The rows and the parked owners of a read. */
export function batchOf(rows: readonly ReadRow[]): { rows: OutboxRow[]; heldFrom: Map<string, number> } {
  const out: OutboxRow[] = [];
  for (const h of rows) {
    if (h.seq !== null) out.push({ seq: h.seq, subject: h.subject!, msg_id: h.msg_id!, payload: h.payload!, waited_ms: Number(h.waited_ms) });
  }
  const held = rows[0]?.held;
  const heldFrom = new Map<string, number>();
  if (held) for (const [owner, seq] of Object.entries(JSON.parse(held) as Record<string, string>)) heldFrom.set(owner, Number(seq));
  return { rows: out, heldFrom };
}

const PARK = `
  with p as (select * from jsonb_to_recordset($1::text::jsonb) as x(seq bigint, owner text, reason text)),
  moved as (
    delete from outbox o using p where o.seq = p.seq and pg_backend_pid() = $2::int
    returning o.seq, o.subject, o.msg_id, o.created_at)
  insert into outbox_parked (seq, owner, subject, msg_id, reason, created_at)
  select m.seq, p.owner, m.subject, m.msg_id, p.reason, m.created_at from moved m join p on p.seq = m.seq`;

/** Moves rows to the dead-letter table (outbox_parked), with their reasons. */
export function park(pid: number, parked: readonly ToPark[]): Statement {
  const items = JSON.stringify(parked.map((p) => ({ seq: p.row.seq, owner: p.owner, reason: p.reason.slice(0, 1_000) })));
  return { text: PARK, params: [items, pid] };
}

const DELETE = `
  delete from outbox
  where seq = any(string_to_array($1::text, ',')::bigint[]) and pg_backend_pid() = $2::int`;

/** Deletes the rows JetStream acked. */
export function deletePublished(pid: number, seqs: readonly string[]): Statement {
  return { text: DELETE, params: [seqs.join(","), pid] };
}

/** Rows committed but not yet published (the backlog gauge). */
export const BACKLOG: Statement = { text: "select count(*)::text as n from outbox", params: [] };

/** The statement for drizzle: the same text, its `$n` bound to the same values. */
export function drizzleStatement(s: Statement): SQL {
  const parts = s.text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${s.params[Number(part) - 1]}`)));
}
