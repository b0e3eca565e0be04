import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../db/database.ts";

export interface ParkedRow {
  seq: number;
  owner: string;
  subject: string;
  msg_id: string;
  reason: string;
  created_at: string;
  parked_at: string;
}

export async function listParked(db: Executor, q: { limit: number; after?: number }): Promise<ParkedRow[]> {
  const rows = rowsOf<ParkedRow & { seq: string }>(
    await db.execute(sql`
      select seq::text as seq, owner, subject, msg_id, reason,
             to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
             to_char(parked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as parked_at
      from outbox_parked where seq > ${q.after ?? 0} order by seq limit ${q.limit}`),
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

export async function countParked(db: Executor): Promise<number> {
  const [row] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from outbox_parked`));
  return Number(row?.n ?? 0);
}

/**
 * Moves parked rows back into the outbox, where the relay publishes them first
 * (lowest seq). `seq` re-queues that row and the rows of its owner held behind it,
 * so the owner's order holds; without `seq`, every parked row. Returns the seqs moved.
 */
export async function retryParked(db: Executor, seq?: number): Promise<number[]> {
  const where =
    seq === undefined
      ? sql`true`
      : sql`owner = (select owner from outbox_parked where seq = ${seq}) and seq >= ${seq}`;
  const rows = rowsOf<{ seq: string }>(
    await db.execute(sql`
      with moved as (delete from outbox_parked where ${where} returning seq, subject, msg_id, created_at)
      insert into outbox (seq, subject, msg_id, created_at)
      select seq, subject, msg_id, created_at from moved
      returning seq::text as seq`),
  );
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}
