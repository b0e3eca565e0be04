import { SUBJECT_PREFIX } from "@crumbs/schemas";

/**
 * The write-path PATCH's statement for N writes of distinct owners at once, as tools/write-combining.ts
 * prices it against the single statement the API sends (store/write-statement.ts): the same CTEs,
 * each fed one row per write from arrays of parameters.
 */

/** The JSON of the row `w` as the contract shows it: the text of write-statement.ts's BREADCRUMB_JSON. */
const BREADCRUMB_JSON = `
  jsonb_build_object(
    'id', w.id, 'owner', w.owner, 'schema_name', w.schema_name, 'title', w.title,
    'tags', to_jsonb(w.tags), 'context', w.context, 'version', w.version,
    'created_at', to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updated_at', to_char(w.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'created_by', w.created_by, 'updated_by', w.updated_by)
  || CASE WHEN w.llm_hints IS NULL OR jsonb_typeof(w.llm_hints) = 'null' THEN '{}'::jsonb
          ELSE jsonb_build_object('llm_hints', w.llm_hints) END
  || CASE WHEN w.key IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('key', w.key) END
  || CASE WHEN w.expires_at IS NULL THEN '{}'::jsonb
          ELSE jsonb_build_object('expires_at', to_char(w.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END`;
const KEY_ORDER = ["id", "owner", "schema_name", "title", "tags", "context", "llm_hints", "key", "version", "created_at", "updated_at", "created_by", "updated_by", "expires_at"];
const BODY_TEXT = `'{' || concat_ws(',', ${KEY_ORDER.map((k) => `'"${k}":' || (b.j -> '${k}')::text`).join(", ")}) || '}'`;

/**
 * The single statement's work for N writes of distinct owners. Parameters: $1 ids, $2 owners, $3
 * expected versions, $4 times, $5 actors, $6 contexts (text, cast to jsonb as the single form's
 * `$13::jsonb`), $7 subject prefixes, $8 changed keys (jsonb text or NULL), $9 the event type, $10
 * the schemas a PATCH may not touch. The owners' head rows are locked in owner order, so two
 * combined statements that share owners wait for each other instead of deadlocking.
 */
export const COMBINED = `
    WITH p AS (
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[])
        WITH ORDINALITY AS p(id, owner, expected, at, actor, context, subject_prefix, changed, ord)),
    w AS (
      UPDATE breadcrumbs t SET version = t.version + 1, updated_at = p.at, updated_by = p.actor, context = p.context::jsonb
      FROM p
      WHERE t.id = p.id AND t.owner = p.owner AND t.version = p.expected
        AND (t.expires_at IS NULL OR t.expires_at > now()) AND t.schema_name <> ALL($10::text[])
      RETURNING t.*, p.ord, p.at AS p_at, p.subject_prefix, p.changed::jsonb AS p_changed),
    b AS (SELECT w.ord, w.id, w.owner, w.version, w.schema_name, w.tags, w.p_at, w.subject_prefix, w.p_changed, ${BREADCRUMB_JSON} AS j FROM w),
    head_src AS (SELECT b.owner FROM b),
    head_lock AS (
      SELECT oh.owner, oh.last_seq AS prev_seq FROM owner_heads oh JOIN head_src ON oh.owner = head_src.owner
      ORDER BY oh.owner FOR UPDATE OF oh),
    head_next AS (SELECT owner, prev_seq, nextval('history_seq') AS seq FROM head_lock),
    head_upd AS (
      UPDATE owner_heads oh SET prev_seq = n.prev_seq, last_seq = n.seq
      FROM head_next n WHERE oh.owner = n.owner
      RETURNING n.owner, n.seq, n.prev_seq),
    head_new AS (
      INSERT INTO owner_heads AS oh (owner, last_seq)
      SELECT head_src.owner, nextval('history_seq') FROM head_src WHERE NOT EXISTS (SELECT 1 FROM head_lock l WHERE l.owner = head_src.owner)
      ON CONFLICT (owner) DO UPDATE SET prev_seq = oh.last_seq, last_seq = nextval('history_seq')
      RETURNING oh.owner, oh.last_seq AS seq, oh.prev_seq),
    s AS (SELECT owner, seq, prev_seq FROM head_upd UNION ALL SELECT owner, seq, prev_seq FROM head_new),
    h AS (
      INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, at, changed, event_json)
      SELECT s.seq, b.id, b.owner, b.version, $9::text, b.schema_name, b.tags, b.p_at, b.p_changed,
             crumbs_event_json(s.seq, $9::text, b.id, b.owner, b.schema_name, b.version, b.p_at, b.p_changed, b.j)
      FROM s JOIN b ON b.owner = s.owner RETURNING seq, breadcrumb_id, event_json),
    o AS (
      INSERT INTO outbox (seq, subject, msg_id)
      SELECT h.seq, b.subject_prefix || b.schema_name, b.id::text || ':' || b.version::text || ':' || $9::text
      FROM h JOIN b ON b.id = h.breadcrumb_id RETURNING seq, subject, msg_id),
    c AS (
      INSERT INTO schema_counts AS sc (owner, schema_name, live)
      SELECT b.owner, b.schema_name, CASE WHEN $9::text = 'created' THEN 1 ELSE -1 END
      FROM b JOIN s ON s.owner = b.owner
      WHERE $9::text <> 'updated'
      ON CONFLICT (owner, schema_name) DO UPDATE SET live = sc.live + excluded.live)
    SELECT b.ord, ${BODY_TEXT} AS body, b.id::text AS id, b.version, b.schema_name,
           CASE WHEN o.seq IS NULL THEN ('no event written for ' || b.id::text)::bigint ELSE o.seq END::text AS seq,
           o.subject, o.msg_id, h.event_json AS payload, s.prev_seq::text AS prev_seq
    FROM b LEFT JOIN s ON s.owner = b.owner LEFT JOIN h ON h.breadcrumb_id = b.id LEFT JOIN o ON o.seq = h.seq`;

/** A Postgres array literal of text elements. */
export const arrayLiteral = (xs: (string | null)[]) =>
  `{${xs.map((x) => (x === null ? "NULL" : `"${x.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`)).join(",")}}`;

/**
 * COMBINED as a pgbench script: client c writes one row of each of the owners c*size .. c*size+size-1
 * (`bench<n>`, owning the rows n + owners * k), reading their versions first. The per-statement
 * values become pgbench variables (`-D actors, ctxs, changed, etype, refused`, the rest from the read);
 * pgbench reads `:word` even inside string literals, so the colons of the time format become chr(58).
 */
export function combinedScript(size: number, owners: number, perOwner: number): string {
  const statement = COMBINED.replace("$1::uuid[]", ":bids::uuid[]")
    .replace("$2::text[]", ":bowners::text[]")
    .replace("$3::int[]", ":bvers::int[]")
    .replace("$4::timestamptz[]", ":bats::timestamptz[]")
    .replace("$5::text[]", ":actors::text[]")
    .replace("$6::text[]", ":ctxs::text[]")
    .replace("$7::text[]", ":bsubjects::text[]")
    .replace("$8::text[]", ":changed::text[]")
    .replaceAll("$9::text", ":etype::text")
    .replace("$10::text[]", ":refused::text[]")
    .replaceAll("HH24:MI:SS", `HH24' || chr(58) || 'MI' || chr(58) || 'SS`)
    .trim();
  return String.raw`
\set k random(0, ${perOwner - 1})
SELECT array_agg(r.id ORDER BY g) AS bids, array_agg(b.owner ORDER BY g) AS bowners, array_agg(b.version ORDER BY g) AS bvers, array_agg(to_jsonb(clock_timestamp()) #>> '{}' ORDER BY g) AS bats, array_agg('${SUBJECT_PREFIX}.' || b.owner || '.updated.' ORDER BY g) AS bsubjects FROM generate_series(:client_id * ${size}, :client_id * ${size} + ${size - 1}) g JOIN bench_rows r ON r.n = g + ${owners} * :k JOIN breadcrumbs b ON b.id = r.id \gset
${statement};
`;
}
