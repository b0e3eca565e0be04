-- A PATCH sent as application/merge-patch+json merges its context into the stored one in the write
-- statement itself (store/merge-patch.ts). Postgres's `||` merges only the top level and keeps
-- null members; RFC 7396 merges objects recursively and a null member removes its key, so the rule
-- is this function. A patch that is not an object replaces the target whole (arrays are never
-- merged by index); a target that is not an object counts as {}. It agrees with the contract's
-- applyMergePatch on the RFC's examples (services/api/test/merge-patch.test.ts).
CREATE OR REPLACE FUNCTION crumbs_merge_patch(target jsonb, patch jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN jsonb_typeof(patch) IS DISTINCT FROM 'object' THEN patch
    ELSE (
      SELECT coalesce(jsonb_object_agg(m.key, m.value), '{}'::jsonb)
      FROM (
        SELECT t.key, t.value
        FROM jsonb_each(CASE WHEN jsonb_typeof(target) = 'object' THEN target ELSE '{}'::jsonb END) AS t
        WHERE NOT jsonb_exists(patch, t.key)
        UNION ALL
        SELECT p.key, crumbs_merge_patch(CASE WHEN jsonb_typeof(target) = 'object' THEN target -> p.key END, p.value)
        FROM jsonb_each(patch) AS p
        WHERE jsonb_typeof(p.value) <> 'null'
      ) AS m)
  END
$$;--> statement-breakpoint
-- The event of an update by merge patch names the top-level context keys it changed; history keeps
-- them so /v1/events and SSE replay the same event the bus carried.
ALTER TABLE "breadcrumb_history" ADD COLUMN "changed" jsonb;
