import { sql, type BuildQueryConfig, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { subjectFor } from "@crumbs/schemas";
import { rowsOf, type Executor } from "../db/database.ts";
import type { CommittedEvent } from "./committed-event.ts";
import type { IdempotencyInput } from "./idempotency.ts";
import { ownerHeadCtes } from "./owner-order.ts";
import { countCte } from "./schema-counts.ts";
import type { EventTypeShort } from "@crumbs/schemas";

/** A jsonb parameter; null and undefined become SQL NULL (never the JSON value null). */
export const jsonbOrNull = (value: unknown): SQL =>
  value == null ? sql`NULL::jsonb` : sql`${JSON.stringify(value)}::jsonb`;

/** An ISO-8601 UTC string with milliseconds, exactly what `Date.prototype.toISOString` gives. */
const isoSql = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A text column as JSON text (a string, or an array of strings). */
const jsonOf = (column: SQL) => sql`to_json(${column})::text`;

/**
 * The contract JSON text of the row `w` with `context` (JSON text) as its context, in the contract's key
 * order (what `breadcrumbFromRow` builds in JS): optional fields are absent, never null. Built in SQL
 * because the history row's event, the outbox row and the idempotency response are written in the same
 * statement as the row; built as text because the event is text, and a jsonb built first (a copy of the
 * context, one more per `||`) and converted back cost ~60 us of the ~340 us of backend CPU per write (migration 0015).
 */
export const breadcrumbText = (context: SQL): SQL => sql`
  '{"id":"' || w.id || '","owner":' || ${jsonOf(sql`w.owner`)} || ',"schema_name":' || ${jsonOf(sql`w.schema_name`)}
  || ',"title":' || ${jsonOf(sql`w.title`)} || ',"tags":' || ${jsonOf(sql`w.tags`)} || ',"context":' || ${context}
  || CASE WHEN w.llm_hints IS NULL OR jsonb_typeof(w.llm_hints) = 'null' THEN '' ELSE ',"llm_hints":' || w.llm_hints::text END
  || coalesce(',"key":' || ${jsonOf(sql`w.key`)}, '') || ',"version":' || w.version
  || ',"created_at":"' || ${isoSql(sql`w.created_at`)} || '","updated_at":"' || ${isoSql(sql`w.updated_at`)}
  || '","created_by":' || ${jsonOf(sql`w.created_by`)} || ',"updated_by":' || ${jsonOf(sql`w.updated_by`)}
  || coalesce(',"expires_at":"' || ${isoSql(sql`w.expires_at`)} || '"', '') || '}'`;

/** The event's JSON text (crumbs_event_text, migration 0015) of the row `b` (its breadcrumb's text `b.t`). */
export const eventText = (seq: SQL, type: SQL, at: SQL, changed: SQL): SQL =>
  sql`crumbs_event_text(${seq}, ${type}, b.id, b.owner, b.schema_name, ${jsonOf(sql`b.title`)}, ${jsonOf(sql`b.tags`)}, b.version, ${at}, ${changed}, b.t)`;

/** A response body that is JSON text already: sent as it is, never parsed and serialised again. */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface WriteStatement {
  owner: string;
  /** The kind of change the statement records (the contract's short event type). */
  type: EventTypeShort;
  /** `INSERT/UPDATE/DELETE ... breadcrumbs ...` matching at most one row, without RETURNING. */
  mutation: SQL;
  /** The event's `at` (ISO string). */
  at: string;
  idempotency?: IdempotencyInput & { status: number };
  /** An update by merge patch: the top-level context keys it changed, for the history row and the event. */
  changed?: readonly string[];
}

export interface WrittenRow {
  id: string;
  version: number;
  schema_name: string;
  /** The row as the contract shows it. */
  body: JsonText;
  seq: number;
  /** The event the statement wrote to the outbox, for the relay to publish without reading it back. */
  event: CommittedEvent;
}

/** The values a write statement binds besides its mutation's: SQL params, or placeholders for the template. */
const VALUE_NAMES = ["owner", "type", "at", "subjectPrefix", "idemKey", "idemFingerprint", "idemStatus", "changed"] as const;
type StatementValues = Record<(typeof VALUE_NAMES)[number], unknown>;

/** What changes the statement's text (the rest is parameters): the idempotency row, and whether it stores a body. */
type Shape = "plain" | "idempotent" | "idempotent-204";

/**
 * One write as ONE autocommit statement: the breadcrumbs change, then (only when it
 * hit a row) the idempotency row, the owner's commit lock and seq, history and outbox.
 *
 * Why one statement: the owner's commit lock (its head row, store/owner-order.ts) makes seq order
 * equal commit order within the owner, and it is held from the moment it is taken to the
 * end of the commit. In one statement the server commits right after it, so the lock
 * never waits on a client round trip. Each CTE feeds the next, which fixes their order:
 * the lock is taken after the row change and after the idempotency insert (which may
 * wait on a concurrent request with the same key; waiting there while holding the lock
 * would deadlock with that request), and nothing is written when the change hit no row.
 * A failure anywhere (e.g. the idempotency key's unique violation) rolls back all of it.
 *
 * No NOTIFY: Postgres serialises every committing transaction that sent one on a single
 * database-wide lock (the notification queue is filled in commit order), which pgbench showed
 * as most backends waiting on `Lock:object`. The writing process kicks its own relay after the
 * commit instead; if another replica's relay is publishing, it picks the row up in its batch.
 */
function writeStatement(shape: Shape, mutation: SQL, v: StatementValues): SQL {
  const idemCte =
    shape === "plain"
      ? sql``
      : sql`, i AS (
        INSERT INTO idempotency_keys (owner, key, fingerprint, status, response, etag)
        SELECT ${v.owner}::text, ${v.idemKey}::text, ${v.idemFingerprint}::text, ${v.idemStatus}::smallint,
               ${shape === "idempotent-204" ? sql`NULL::jsonb` : sql`b.t::jsonb`},
               ${shape === "idempotent-204" ? sql`NULL::text` : sql`'"' || b.version::text || '"'`}
        FROM b RETURNING 1)`;
  return sql`
    WITH w AS (${mutation} RETURNING *),
    b AS (SELECT w.id, w.owner, w.version, w.schema_name, w.title, w.tags, ${breadcrumbText(sql`w.context::text`)} AS t FROM w)
    ${idemCte},
    ${ownerHeadCtes(sql`SELECT b.owner FROM b WHERE EXISTS (SELECT 1 FROM ${shape === "plain" ? sql`b` : sql`i`})`)},
    h AS (
      -- The history row keeps the breadcrumb once, inside its event's text (migration 0014): the
      -- \`breadcrumb\` column stays NULL. A second jsonb copy was 2-2.4 KB of TOAST WAL per write.
      INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, at, changed, event_json)
      SELECT s.seq, b.id, b.owner, b.version, ${v.type}::text, b.schema_name, b.tags, ${v.at}::timestamptz, ${v.changed}::jsonb,
             ${eventText(sql`s.seq`, sql`${v.type}::text`, sql`${v.at}::timestamptz`, sql`${v.changed}::jsonb`)}
      FROM s, b RETURNING seq, event_json
    ), o AS (
      -- The outbox row names its history row (the relay publishes that row's event_json): the
      -- event's bytes are stored once, and the write does not compress and TOAST a second 2-3 KB copy.
      INSERT INTO outbox (seq, subject, msg_id)
      SELECT h.seq, ${v.subjectPrefix}::text || b.schema_name, b.id::text || ':' || b.version::text || ':' || ${v.type}::text
      FROM h, b RETURNING seq, subject, msg_id
    ), c AS (${countCte(sql`${v.type}::text`, sql`SELECT b.owner, b.schema_name FROM b`, sql`s`)})
    SELECT b.id::text AS id, b.version, b.schema_name,
           -- A row change must never commit without its event: should the chain ever yield no
           -- outbox row, fail the statement (and so roll it all back) instead of answering.
           CASE WHEN o.seq IS NULL THEN ('no event written for ' || b.id::text)::bigint
                ELSE o.seq END::text AS seq,
           o.subject, o.msg_id, h.event_json AS payload, s.prev_seq::text AS prev_seq
    FROM b LEFT JOIN o ON true LEFT JOIN s ON true LEFT JOIN h ON true`;
}

/**
 * The event subject up to its schema name (`crumbs.<owner>.<type>.`). Validates the owner as a
 * subject token; the schema name was validated when the row was created.
 */
export const subjectPrefixOf = (owner: string, type: EventTypeShort): string => subjectFor(owner, type, "x.v1").slice(0, -"x.v1".length);

/**
 * Writes `w` (see writeStatement) and returns the row as the contract shows it (JSON text), with
 * its seq. Returns undefined when the mutation matched no row.
 */
export async function executeWrite(db: Executor, w: WriteStatement): Promise<WrittenRow | undefined> {
  const subjectPrefix = subjectPrefixOf(w.owner, w.type);
  const idem = w.idempotency;
  const shape: Shape = !idem ? "plain" : idem.status === 204 ? "idempotent-204" : "idempotent";
  const values: StatementValues = {
    owner: w.owner,
    type: w.type,
    at: w.at,
    subjectPrefix,
    idemKey: idem?.key ?? null,
    idemFingerprint: idem?.fingerprint ?? null,
    idemStatus: idem?.status ?? null,
    changed: w.changed ? JSON.stringify(w.changed) : null,
  };
  const client = postgresJsClientOf(db);
  const result = client
      ? await runPrepared(client, shape, w.mutation, values)
      : await db.execute(writeStatement(shape, w.mutation, values));
  const row = rowsOf<StatementRow>(result)[0];
  return row && writtenRow(row);
}

/** What precedes the breadcrumb, the last member of an event's JSON text (crumbs_event_json, migration 0012). */
const BREADCRUMB_MEMBER = ',"breadcrumb":';

/**
 * The response body: the breadcrumb member of the event's text (breadcrumbText), so Postgres builds the
 * breadcrumb's text once and sends it once. The first `,"breadcrumb":` is the member itself: the
 * members before it are strings, numbers and arrays of strings, whose text cannot hold it unquoted.
 */
function bodyOf(payload: string): JsonText {
  const at = payload.indexOf(BREADCRUMB_MEMBER);
  if (at < 0 || !payload.endsWith("}")) throw new Error("the event's text holds no breadcrumb");
  return new JsonText(payload.slice(at + BREADCRUMB_MEMBER.length, -1));
}

/** A row of the write statement (or of the combined one) as the write's result. */
export function writtenRow(row: StatementRow): WrittenRow {
  const event: CommittedEvent = {
    seq: row.seq,
    subject: row.subject,
    msg_id: row.msg_id,
    payload: row.payload,
    prev_seq: row.prev_seq,
    committedAt: Date.now(),
  };
  return { id: row.id, version: Number(row.version), schema_name: row.schema_name, body: bodyOf(row.payload), seq: Number(row.seq), event };
}

export interface StatementRow {
  id: string;
  version: number;
  schema_name: string;
  seq: string;
  subject: string;
  msg_id: string;
  payload: string;
  prev_seq: string | null;
}

const dialect = new PgDialect();

export interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown>;
  /** The pool's settings (postgres-js's parsed options). */
  options?: { max?: number };
}

/** The postgres-js client under `db`; undefined on PGlite and in a transaction. */
export function postgresJsClientOf(db: Executor): PostgresJsClient | undefined {
  const client = (db as { $client?: Partial<PostgresJsClient> }).$client;
  return typeof client?.unsafe === "function" ? (client as PostgresJsClient) : undefined;
}

/** The statement of one shape rendered once: its text around the mutation, and its own parameters' names in order. */
interface Template {
  head: string;
  tail: string;
  names: (keyof StatementValues)[];
}

const MUTATION_MARK = "/*crumbs:mutation*/";
/** What PgDialect.sqlToQuery passes to toQuery (its casing cache is not in drizzle's public types). */
const renderMutation: BuildQueryConfig = {
  casing: (dialect as unknown as { casing: BuildQueryConfig["casing"] }).casing,
  escapeName: (name) => dialect.escapeName(name),
  escapeParam: (num) => dialect.escapeParam(num),
  escapeString: (str) => dialect.escapeString(str),
  prepareTyping: (encoder) => dialect.prepareTyping(encoder),
};
const templates = new Map<Shape, Template>();

function templateFor(shape: Shape): Template {
  let t = templates.get(shape);
  if (t) return t;
  const names = Object.fromEntries(VALUE_NAMES.map((k) => [k, sql.placeholder(k)])) as StatementValues;
  const q = dialect.sqlToQuery(writeStatement(shape, sql.raw(MUTATION_MARK), names));
  const [head, tail, ...rest] = q.sql.split(MUTATION_MARK);
  if (head === undefined || tail === undefined || rest.length > 0) throw new Error("the write statement must hold its mutation once");
  t = { head, tail, names: q.params.map((p) => (p as { name: keyof StatementValues }).name) };
  templates.set(shape, t);
  return t;
}

/**
 * drizzle sends every query as an unnamed statement, and postgres-js then asks the
 * server for its parameter types first: two round trips per query. On postgres-js the
 * write statement is run as a named prepared statement instead (cached per connection,
 * same serializers and parsers as drizzle's), so a write is one round trip. Anything
 * else (PGlite, a transaction) goes through drizzle.
 *
 * The statement around the mutation is rendered once per shape (drizzle walking its chunks
 * was about 5% of the API's main thread per PATCH); only the mutation is rendered per write,
 * its parameters numbered after the template's.
 */
function runPrepared(client: PostgresJsClient, shape: Shape, mutation: SQL, values: StatementValues): Promise<unknown> {
  const t = templateFor(shape);
  const m = mutation.toQuery({ ...renderMutation, paramStartIndex: { value: t.names.length } });
  return client.unsafe(t.head + m.sql + t.tail, [...t.names.map((n) => values[n]), ...m.params], { prepare: true });
}

/** A Postgres unique violation, through drizzle's error wrapping. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e = err, i = 0; e && i < 6; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
