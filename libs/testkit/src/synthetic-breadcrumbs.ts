import type postgres from "postgres";

/**
 * Many breadcrumbs written straight into a migrated crumbs database by one SQL statement each
 * (generate_series), for the query-plan guard (services/api/test/query-plans.test.ts) and the `scale`
 * bench: through the API, a million rows would take hours. Every row also gets its `created`
 * history row, the owners' head rows and the counts per schema are set as the writes would have
 * left them, and nothing goes to the outbox (the relay would publish all of it).
 *
 * Row i (1..rows) belongs to owner `ownerPrefix + (i % owners)` and is that owner's row
 * j = floor(i / owners): a page context when j % 4 = 0 (the other three schemas in turn), the
 * common tag when j is even. About 500 bytes of context each; `updated_at` grows with i.
 */
export const SYNTHETIC = {
  ownerPrefix: "owner",
  pageSchema: "browser.page.context.v1",
  /** On half of the rows. */
  commonTag: "browser:active-tab",
  /** In the title of one row in RARE_EVERY (and in no other title). */
  rareWord: "quokka",
  rareEvery: 9_973,
  /** The page context's url of row i. */
  urlOf: (i: number) => `https://docs.example.com/guide/page-${i}`,
} as const;

/** Fills an empty, migrated crumbs database (the counts and heads it sets assume no earlier rows). */
export async function fillSyntheticBreadcrumbs(
  sql: postgres.Sql,
  opts: { rows: number; owners: number },
): Promise<void> {
  const { rows, owners } = opts;
  // Building the indexes once over all rows is several times faster than updating them row by row
  // (the two GIN indexes most of all): drop them, load, and create them again as they were.
  const indexes = await sql<{ indexname: string; indexdef: string }[]>`
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename IN ('breadcrumbs', 'breadcrumb_history')
      AND indexname NOT IN ('breadcrumbs_pkey', 'breadcrumb_history_pkey')`;
  await sql.begin(async (tx) => {
    await tx`SET LOCAL maintenance_work_mem = '512MB'`;
    for (const ix of indexes) await tx.unsafe(`DROP INDEX "${ix.indexname}"`);
    await tx`
      INSERT INTO breadcrumbs (id, owner, schema_name, title, tags, context, version,
                               created_at, updated_at, created_by, updated_by)
      SELECT u.id, ${SYNTHETIC.ownerPrefix} || (g % ${owners}::int), s.schema_name,
             'Page ' || g || CASE WHEN g % ${SYNTHETIC.rareEvery}::int = 0 THEN ' ' || ${SYNTHETIC.rareWord} ELSE ' guide' END,
             CASE WHEN (g / ${owners}::int) % 2 = 0 THEN ARRAY[${SYNTHETIC.commonTag}, 'session:s' || (g % 100)] ELSE ARRAY['session:s' || (g % 100)] END,
             jsonb_build_object(
               'url', 'https://docs.example.com/guide/page-' || g, 'title', 'Page ' || g, 'lang', 'en',
               'viewport', jsonb_build_object('width', 1280, 'height', 800, 'scrollY', (g * 40) % 4000),
               'content', jsonb_build_object('mainText', repeat('Reading the guide about breadcrumbs. ', 10) || g)),
             1, t.at, t.at, 'bench', 'bench'
      FROM generate_series(1, ${rows}::int) g,
           LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00' + g * interval '1 ms' AS at) t,
           LATERAL (SELECT (ARRAY[${SYNTHETIC.pageSchema}, 'chat.message.v1', 'agent.note.v1', 'browser.action.v1'])[(g / ${owners}::int) % 4 + 1] AS schema_name) s,
           -- A v4-shaped id (version and variant digits set), as the contract's uuid check requires.
           LATERAL (SELECT overlay(overlay(md5(g::text) placing '4' from 13) placing '8' from 17)::uuid AS id) u`;
    // The history row as the write statement leaves it: the event's text kept, the breadcrumb only
    // inside it (migrations 0012 and 0014), so reads at scale take the path the API's own rows take.
    await tx`
      INSERT INTO breadcrumb_history (seq, breadcrumb_id, owner, version, event, schema_name, tags, event_json, at)
      SELECT h.seq, h.id, h.owner, 1, 'created', h.schema_name, h.tags,
             crumbs_event_json(h.seq, 'created', h.id, h.owner, h.schema_name, 1, h.at, NULL, h.breadcrumb), h.at
      FROM (
        SELECT row_number() OVER (ORDER BY b.updated_at) AS seq, b.id, b.owner, b.schema_name, b.tags, b.updated_at AS at,
               jsonb_build_object('id', b.id, 'owner', b.owner, 'schema_name', b.schema_name, 'title', b.title,
                 'tags', to_jsonb(b.tags), 'context', b.context, 'version', 1,
                 'created_at', t.iso, 'updated_at', t.iso, 'created_by', 'bench', 'updated_by', 'bench') AS breadcrumb
        FROM breadcrumbs b, LATERAL (SELECT to_char(b.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso) t
      ) h`;
    for (const ix of indexes) await tx.unsafe(ix.indexdef);
    await tx`SELECT setval('history_seq', (SELECT max(seq) FROM breadcrumb_history))`;
    await tx`
      INSERT INTO owner_heads (owner, last_seq) SELECT owner, max(seq) FROM breadcrumb_history GROUP BY owner
      ON CONFLICT (owner) DO UPDATE SET prev_seq = owner_heads.last_seq, last_seq = excluded.last_seq`;
    await tx`
      INSERT INTO schema_counts (owner, schema_name, live) SELECT owner, schema_name, count(*) FROM breadcrumbs GROUP BY 1, 2
      ON CONFLICT (owner, schema_name) DO UPDATE SET live = excluded.live`;
  });
  await sql`VACUUM ANALYZE breadcrumbs`;
  await sql`VACUUM ANALYZE breadcrumb_history`;
}
