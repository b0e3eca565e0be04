-- The outbox carries each event as the JSON text its history row keeps (crumbs_event_json, 0012):
-- one definition of an event's bytes for the bus and for replay. The write statement built the
-- payload a second time as jsonb (jsonb_build_object over the 2-3 KB breadcrumb) and turned it
-- back into text for the relay; now it copies the text it just built, and the relay publishes it
-- as stored. Rows already waiting keep their content (jsonb's text of the same event).
ALTER TABLE "outbox" ALTER COLUMN "payload" SET DATA TYPE text USING "payload"::text;--> statement-breakpoint
ALTER TABLE "outbox_parked" ALTER COLUMN "payload" SET DATA TYPE text USING "payload"::text;--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE "outbox" ALTER COLUMN "payload" SET COMPRESSION lz4;
  ALTER TABLE "outbox_parked" ALTER COLUMN "payload" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: the payload columns keep pglz';
END $$;--> statement-breakpoint
-- No read filters or orders history by (owner, at): /v1/events?since=&until= walks the owner's seq
-- order (docs/scaling.md, "Reads at scale"). A PATCH is never HOT, so every write paid for this
-- index's entry.
DROP INDEX IF EXISTS "history_owner_at_idx";
