import { sql } from "drizzle-orm";
import { breadcrumbEventOf, msgIdFor, subjectFor, type Breadcrumb, type EventTypeShort } from "@crumbs/schemas";
import { rowsOf, type Tx } from "../db/database.ts";
import { ownerHeadCtes } from "./owner-order.ts";
import { countCte } from "./schema-counts.ts";

/** The kind of change a write records (the contract's short event type). */
export type ChangeType = EventTypeShort;

/**
 * Writes the history row and the outbox row inside a transaction. It takes the owner's commit
 * lock (its head row, store/owner-order.ts), held until commit, so call it at the end of the transaction and,
 * for several owners in one transaction, in owner order (two transactions taking two owners'
 * locks in opposite orders would deadlock).
 */
export async function recordChange(tx: Tx, type: ChangeType, b: Breadcrumb, at: string): Promise<number> {
  // seq 0 stands in until the statement draws the real one (jsonb_set below).
  const payload = breadcrumbEventOf(0, type, b, at);
  const subject = subjectFor(b.owner, type, b.schema_name);
  const msgId = msgIdFor(b.id, b.version, type);
  const result = await tx.execute(sql`
    WITH ${ownerHeadCtes(sql`SELECT ${b.owner}::text AS owner`)},
    h AS (
      INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, breadcrumb, at)
      SELECT s.seq, ${b.id}::uuid, ${b.owner}, ${b.version}::int, ${type}, ${b.schema_name},
             ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(b.tags)}::jsonb)),
             ${JSON.stringify(b)}::jsonb, ${at}::timestamptz
      FROM s RETURNING seq
    ), c AS (${countCte(sql`${type}::text`, sql`SELECT ${b.owner}::text AS owner, ${b.schema_name}::text AS schema_name`, sql`s`)})
    INSERT INTO outbox (seq, subject, msg_id, payload)
    SELECT h.seq, ${subject}, ${msgId}, jsonb_set(${JSON.stringify(payload)}::jsonb, '{seq}', to_jsonb(h.seq))
    FROM h
    RETURNING seq::text AS seq`);
  const row = rowsOf<{ seq: string }>(result)[0];
  if (!row) throw new Error(`no history row written for ${b.id}`);
  return Number(row.seq);
}
