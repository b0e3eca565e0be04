import { sql } from "drizzle-orm";
import { msgIdFor, subjectFor, type Breadcrumb } from "@crumbs/schemas";
import { rowsOf, type Tx } from "../db/database.ts";

export type ChangeType = "created" | "updated" | "deleted";

/** The event JSON shared by NATS payloads, SSE `data` and `/v1/events` items (without seq until committed). */
export function eventBody(type: ChangeType, b: Breadcrumb, at: string) {
  return {
    type: `breadcrumb.${type}` as const,
    id: b.id,
    owner: b.owner,
    schema_name: b.schema_name,
    title: b.title,
    tags: b.tags,
    version: b.version,
    at,
    breadcrumb: b,
  };
}

/**
 * Writes the history row and the outbox row. It must be the LAST statement of
 * the write transaction: bumping the single-row counter takes a row lock held
 * until commit, which makes seq order equal commit order (a reader paging with
 * `after` can never see seq 5 before seq 4) while keeping the lock short.
 */
export async function recordChange(tx: Tx, type: ChangeType, b: Breadcrumb, at: string): Promise<number> {
  const payload = { seq: 0, ...eventBody(type, b, at) };
  const subject = subjectFor(b.owner, type, b.schema_name);
  const msgId = msgIdFor(b.id, b.version, type);
  const result = await tx.execute(sql`
    WITH s AS (
      UPDATE seq_counter SET value = value + 1 WHERE id = 1 RETURNING value
    ), h AS (
      INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at)
      SELECT s.value, ${b.id}::uuid, ${b.owner}, ${b.version}::int, ${type}, ${b.schema_name},
             ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(b.tags)}::jsonb)),
             ${JSON.stringify(b)}::jsonb, ${at}::timestamptz
      FROM s RETURNING seq
    ), n AS (
      -- Delivered at commit: wakes the relays of other replicas.
      SELECT pg_notify('crumbs_outbox', '') AS sent
    )
    INSERT INTO outbox (seq, subject, msg_id, payload)
    SELECT h.seq, ${subject}, ${msgId}, jsonb_set(${JSON.stringify(payload)}::jsonb, '{seq}', to_jsonb(h.seq))
    FROM h, n
    RETURNING seq::text AS seq`);
  const row = rowsOf<{ seq: string }>(result)[0];
  if (!row) throw new Error("seq_counter row missing: run the migrations");
  return Number(row.seq);
}
