import type postgres from "postgres";
import { SUBJECT_PREFIX } from "@crumbs/schemas";

/**
 * The simplest way to do a PATCH's durable work, as pgbench runs it: one transaction that updates
 * the row, inserts its history row and inserts its outbox row, on tables with nothing but their
 * primary keys. The client builds the JSON (the breadcrumb and the event, the same bytes as the
 * API's) and sends it as parameters; Postgres only stores it. What the API's statement pays on top
 * (the read indexes, JSON built in SQL, the owner's commit lock and seq, schema counts) is what
 * this floor leaves out, so the ratio against it says what those guarantees cost per write.
 *
 * The JSON columns use lz4 like the API's (migrations 0006): the floor should not lose time to
 * pglz the API does not spend.
 */
export async function createFloorTables(sql: postgres.Sql): Promise<void> {
  await sql.unsafe(`
    CREATE TABLE floor_rows (id uuid PRIMARY KEY, owner text NOT NULL, version int NOT NULL,
                             context jsonb COMPRESSION lz4 NOT NULL, updated_at timestamptz NOT NULL);
    CREATE TABLE floor_history (seq bigserial PRIMARY KEY, id uuid NOT NULL, owner text NOT NULL, version int NOT NULL,
                                breadcrumb jsonb COMPRESSION lz4 NOT NULL, at timestamptz NOT NULL);
    CREATE TABLE floor_outbox (seq bigint PRIMARY KEY, subject text NOT NULL, msg_id text NOT NULL,
                               payload jsonb COMPRESSION lz4 NOT NULL);
    INSERT INTO floor_rows SELECT id, owner, version, context, updated_at FROM breadcrumbs;`);
}

/**
 * The transaction's script. Client c writes the rows n = c + 16k of its own owner, as in the
 * API's phase; `bench_rows` maps n to the row (one indexed read before the transaction, as the
 * same-statement floor does). The outbox is emptied by nobody: it grows by one row a write, as the
 * API's would if the relay stopped, which costs the floor more than the API, not less.
 */
export function floorScript(rows: number, clients: number): string {
  return String.raw`
\set n :client_id + ${clients} * random(0, ${Math.ceil(rows / clients) - 2})
\if :n >= ${rows}
\set n :n - ${clients}
\endif
SELECT r.id AS bid FROM bench_rows r WHERE r.n = :n \gset
BEGIN;
UPDATE floor_rows SET context = :ctx::jsonb, version = version + 1, updated_at = now() WHERE id = :bid RETURNING owner AS bowner, version AS bver \gset
INSERT INTO floor_history (id, owner, version, breadcrumb, at) VALUES (:bid, :bowner, :bver, :bc::jsonb, now()) RETURNING seq AS bseq \gset
INSERT INTO floor_outbox (seq, subject, msg_id, payload) VALUES (:bseq, '${SUBJECT_PREFIX}.' || :bowner::text || '.updated.browser.page.context.v1', :bid::text || ':' || :bver::text, :ev::jsonb);
END;
`;
}

/**
 * The script's JSON parameters from a breadcrumb the API answered a PATCH with: its context, the
 * breadcrumb as history stores it, and the event as the outbox stores it (the breadcrumb inside).
 */
export function floorVars(breadcrumbText: string): Record<string, string> {
  const b = JSON.parse(breadcrumbText) as Record<string, unknown>;
  const event = {
    seq: 1,
    type: "breadcrumb.updated",
    id: b.id,
    owner: b.owner,
    schema_name: b.schema_name,
    title: b.title,
    tags: b.tags,
    version: b.version,
    at: b.updated_at,
    breadcrumb: b,
  };
  return { ctx: JSON.stringify(b.context), bc: breadcrumbText, ev: JSON.stringify(event) };
}
