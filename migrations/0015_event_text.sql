-- An event's JSON text from the breadcrumb's text, so a write builds the breadcrumb as text once
-- (write-statement.ts, BREADCRUMB_TEXT) instead of as jsonb to be converted: building the jsonb (a copy of
-- the context and one more for each `||`) and converting it back was ~60 us of a PATCH's ~340 us of
-- backend CPU, measured over 20,000 page contexts. `title` and `tags` are JSON text (a string, an array).
CREATE OR REPLACE FUNCTION crumbs_event_text(seq bigint, event text, id uuid, owner text, schema_name text, title text,
                                             tags text, version integer, at timestamptz, changed jsonb, breadcrumb text)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT '{"seq":' || seq || ',"type":"breadcrumb.' || event || '","id":"' || id ||
    '","owner":' || to_json(owner)::text || ',"schema_name":' || to_json(schema_name)::text ||
    ',"title":' || coalesce(title, 'null') || ',"tags":' || coalesce(tags, 'null') ||
    ',"version":' || version || ',"at":"' || to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
    '"' || coalesce(',"changed":' || changed::text, '') || ',"breadcrumb":' || breadcrumb || '}'
$$;--> statement-breakpoint
-- The same event from the breadcrumb as jsonb (rows written before 0012, tests): the text it gave before.
CREATE OR REPLACE FUNCTION crumbs_event_json(seq bigint, event text, id uuid, owner text, schema_name text,
                                             version integer, at timestamptz, changed jsonb, breadcrumb jsonb)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT crumbs_event_text(seq, event, id, owner, schema_name, (breadcrumb -> 'title')::text, (breadcrumb -> 'tags')::text,
                           version, at, changed, breadcrumb::text)
$$;
