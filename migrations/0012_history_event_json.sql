-- The contract's event body (@crumbs/schemas breadcrumbEventOf: the same fields in the same order)
-- as JSON text, from a history row's columns: the breadcrumb is jsonb's text, the title and tags
-- its values' JSON text, and `changed` where a merge patch set it. The one definition of that text:
-- the write statement stores it with each history row, and a page of rows written before this
-- migration builds it on the fly (store/paging/history-page.ts).
CREATE OR REPLACE FUNCTION crumbs_event_json(seq bigint, event text, id uuid, owner text, schema_name text,
                                             version integer, at timestamptz, changed jsonb, breadcrumb jsonb)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT '{"seq":' || seq || ',"type":"breadcrumb.' || event || '","id":"' || id ||
    '","owner":' || to_json(owner)::text || ',"schema_name":' || to_json(schema_name)::text ||
    ',"title":' || coalesce((breadcrumb -> 'title')::text, 'null') ||
    ',"tags":' || coalesce((breadcrumb -> 'tags')::text, 'null') ||
    ',"version":' || version || ',"at":"' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
    '"' || coalesce(',"changed":' || changed::text, '') || ',"breadcrumb":' || breadcrumb::text || '}'
$$;--> statement-breakpoint
-- Each history row keeps its event's JSON text as written, so a page of /v1/events (the SSE
-- backfill, a replay) sends stored text: converting jsonb to text was about 55% of Postgres's time
-- per page (2.6-3.1 s of the 100,000 rows of 1.3 KB of the replay bench, against 0.13 s for
-- count(*)), and octet_length of a text column reads its size from the header, so sizing a row
-- for the byte bound no longer converts anything either. NULL for rows written before.
ALTER TABLE "breadcrumb_history" ADD COLUMN "event_json" text;--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE "breadcrumb_history" ALTER COLUMN "event_json" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: event_json keeps pglz';
END $$;
