import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "../db/database.ts";
import { ownersHeadCtes } from "./owner-order.ts";
import { arrayLiteral } from "./sql-helpers.ts";
import { WriteCombiner } from "./write-combiner.ts";
import {
  breadcrumbText,
  eventText,
  postgresJsClientOf,
  subjectPrefixOf,
  writtenRow,
  type PostgresJsClient,
  type StatementRow,
  type WrittenRow,
} from "./write-statement.ts";

/**
 * A PATCH that replaces the context (with If-Match, no Idempotency-Key, nothing else in the body):
 * the shape that may share a statement with others (see WriteCombiner). Other writes run alone.
 */
export interface ContextReplaceValues {
  id: string;
  owner: string;
  actor: string;
  expectedVersion: number;
  /** The event's `at` and the row's updated_at (ISO string). */
  at: string;
  /** The new context as JSON text. */
  context: string;
  /** The schemas whose check refuses the context (write-schema-guard.ts); empty when none does. */
  refused: readonly string[];
}

export interface ContextReplace extends ContextReplaceValues {
  /** The same write with the single statement: how it runs alone. */
  alone(): Promise<WrittenRow | undefined>;
}

/**
 * The single write statement's work (write-statement.ts, for a PATCH of the context) for N writes of
 * distinct owners at once: each CTE is fed one row per write from arrays of parameters (`unnest`
 * WITH ORDINALITY), and the result has one row per write that hit its row, named by `ord` (1-based).
 * A write whose row is gone, whose version is stale or whose schema refuses the context matches no
 * row and has no result row; nothing is written for it, and the others commit.
 *
 * Parameters, each an array with one element per write: $1 ids, $2 owners, $3 expected versions,
 * $4 times, $5 actors, $6 contexts (JSON text, cast as the single form casts its parameter), $7 subject
 * prefixes, $8 the refused schemas (each an array literal). Postgres's generic plan finds the rows
 * by `breadcrumbs_pkey` in a nested loop over the unnest, a point write at any table size
 * (bench/tools/write-combining.ts prints it, and checks this statement against the single one).
 *
 * Two statements of two API replicas can hold overlapping owners. Their head rows are locked in owner
 * order (ownersHeadCtes), but their breadcrumb rows are locked in the order the UPDATE meets them,
 * so two statements changing the same two rows can deadlock: Postgres then fails one of them after
 * deadlock_timeout (1 s by default), and WriteCombiner runs each of its writes alone. Within one
 * process this cannot happen: an owner is never in two statements at once.
 */
const COMBINED_PATCH_SQL = sql`
  WITH p AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[])
      WITH ORDINALITY AS p(id, owner, expected, at, actor, context, subject_prefix, refused, ord)),
  w AS (
    UPDATE breadcrumbs t SET version = t.version + 1, updated_at = p.at, updated_by = p.actor, context = p.context::jsonb
    FROM p
    WHERE t.id = p.id AND t.owner = p.owner AND t.version = p.expected
      AND (t.expires_at IS NULL OR t.expires_at > now()) AND t.schema_name <> ALL(p.refused::text[])
    -- Every column but the context, which b takes from p as the API sent it: the same JSON value as
    -- the row's, without converting the row's jsonb back to text.
    RETURNING t.id, t.owner, t.schema_name, t.title, t.tags, t.llm_hints, t.key, t.version, t.created_at, t.updated_at,
              t.created_by, t.updated_by, t.expires_at, p.ord, p.at AS p_at, p.subject_prefix, p.context AS p_context),
  b AS (SELECT w.ord, w.id, w.owner, w.version, w.schema_name, w.title, w.tags, w.p_at, w.subject_prefix, ${breadcrumbText(sql`w.p_context`)} AS t FROM w),
  ${ownersHeadCtes(sql`SELECT b.owner FROM b`)},
  h AS (
    INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, at, changed, event_json)
    SELECT s.seq, b.id, b.owner, b.version, 'updated', b.schema_name, b.tags, b.p_at, NULL::jsonb,
           ${eventText(sql`s.seq`, sql`'updated'`, sql`b.p_at`, sql`NULL::jsonb`)}
    FROM s JOIN b ON b.owner = s.owner RETURNING seq, breadcrumb_id, event_json),
  o AS (
    INSERT INTO outbox (seq, subject, msg_id)
    SELECT h.seq, b.subject_prefix || b.schema_name, b.id::text || ':' || b.version::text || ':updated'
    FROM h JOIN b ON b.id = h.breadcrumb_id RETURNING seq, subject, msg_id)
  -- No schema_counts CTE: a PATCH never changes a row's schema (store/schema-counts.ts).
  SELECT b.ord::int AS ord, b.id::text AS id, b.version, b.schema_name,
         -- As in the single statement: a row change never commits without its event.
         CASE WHEN o.seq IS NULL THEN ('no event written for ' || b.id::text)::bigint ELSE o.seq END::text AS seq,
         o.subject, o.msg_id, h.event_json AS payload, s.prev_seq::text AS prev_seq
  FROM b LEFT JOIN s ON s.owner = b.owner LEFT JOIN h ON h.breadcrumb_id = b.id LEFT JOIN o ON o.seq = h.seq`;

/** The combined statement's text (it has no parameters of drizzle's: its $n are its own). */
export const COMBINED_PATCH = new PgDialect().sqlToQuery(COMBINED_PATCH_SQL).sql;

/** The parameters of COMBINED_PATCH for `writes`: arrays as literals, as the single form sends text[]. */
export function combinedPatchParams(writes: readonly ContextReplaceValues[]): string[] {
  return [
    arrayLiteral(writes.map((w) => w.id)),
    arrayLiteral(writes.map((w) => w.owner)),
    arrayLiteral(writes.map((w) => String(w.expectedVersion))),
    arrayLiteral(writes.map((w) => w.at)),
    arrayLiteral(writes.map((w) => w.actor)),
    arrayLiteral(writes.map((w) => w.context)),
    arrayLiteral(writes.map((w) => subjectPrefixOf(w.owner, "updated"))),
    arrayLiteral(writes.map((w) => arrayLiteral(w.refused))),
  ];
}

/** Writes `writes` (distinct owners) as one statement: each one's row, or undefined where it matched none. */
export async function executeCombinedPatch(client: PostgresJsClient, writes: readonly ContextReplace[]): Promise<(WrittenRow | undefined)[]> {
  const rows = (await client.unsafe(COMBINED_PATCH, combinedPatchParams(writes), { prepare: true })) as (StatementRow & { ord: number })[];
  const out: (WrittenRow | undefined)[] = writes.map(() => undefined);
  for (const row of rows) out[row.ord - 1] = writtenRow(row);
  return out;
}

/**
 * Writes per statement at most. 16 is the largest size results 47 priced (-55-62% of the statement's
 * Postgres CPU per write). In the write-path bench (16 clients, the pool's 4 connections) statements
 * held 4.0 writes on average, 58% of them two or more, the largest 16 (bench/results 49).
 */
const MAX_PER_STATEMENT = 16;

export type PatchCombiner = WriteCombiner<ContextReplace, WrittenRow | undefined>;

const combiners = new WeakMap<PostgresJsClient, PatchCombiner>();

/**
 * The combiner of the pool under `db` (one per pool: its slots are the pool's connections), or
 * undefined where writes are not combined: PGlite, a transaction, a client that names no pool size
 * (bench/suites/write-path-sql.ts captures the single statement with one).
 */
export function patchCombinerOf(db: Executor): PatchCombiner | undefined {
  const client = postgresJsClientOf(db);
  const slots = client?.options?.max;
  if (!client || !slots) return undefined;
  let combiner = combiners.get(client);
  if (!combiner) {
    combiner = new WriteCombiner({
      slots,
      maxPerStatement: MAX_PER_STATEMENT,
      runBatch: (writes) => executeCombinedPatch(client, writes),
      runAlone: (w) => w.alone(),
      defer: (start) => void setImmediate(start),
    });
    combiners.set(client, combiner);
  }
  return combiner;
}
