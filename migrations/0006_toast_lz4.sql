-- The JSON columns a write fills (a 2-3 KB page context lands in three of them per write) are
-- compressed with lz4 instead of pglz where the server has lz4 (Postgres 14+ built with it, as
-- Debian's and the official images are): pglz was the largest single item of the Postgres
-- backends in a profile of the write path. Values written earlier stay as they are; both read the
-- same. Embedded PGlite has no lz4, so there this changes nothing.
DO $$
BEGIN
  ALTER TABLE "breadcrumbs" ALTER COLUMN "context" SET COMPRESSION lz4;
  ALTER TABLE "breadcrumbs" ALTER COLUMN "llm_hints" SET COMPRESSION lz4;
  ALTER TABLE "breadcrumb_history" ALTER COLUMN "breadcrumb" SET COMPRESSION lz4;
  ALTER TABLE "outbox" ALTER COLUMN "payload" SET COMPRESSION lz4;
  ALTER TABLE "outbox_parked" ALTER COLUMN "payload" SET COMPRESSION lz4;
  ALTER TABLE "idempotency_keys" ALTER COLUMN "response" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'lz4 is not available: the JSON columns keep pglz';
END $$;
