-- A history row keeps its breadcrumb once: inside its event's JSON text (event_json, kept since 0012),
-- and no longer also as jsonb. The write statement writes NULL into `breadcrumb`; one breadcrumb's
-- history reads it from the event's text (store/history.ts). The second copy was compressed and
-- TOASTed with every write: history's TOAST was 3.9 KB of the 7.4 KB of WAL per PATCH. Rows written
-- before 0012 have no event_json and keep their `breadcrumb`; rows written between 0012 and this
-- migration keep both. Upgrade every API replica together: an earlier replica reads `breadcrumb`
-- for one breadcrumb's history and would get NULL for rows the upgraded replicas write.
ALTER TABLE "breadcrumb_history" ALTER COLUMN "breadcrumb" DROP NOT NULL;--> statement-breakpoint
-- NOT VALID: every row written from now on is checked, and the rows already there (all of which
-- hold `breadcrumb`, NOT NULL until this migration) are not scanned under the table's lock.
ALTER TABLE "breadcrumb_history" ADD CONSTRAINT "history_breadcrumb_kept" CHECK ("breadcrumb_history"."breadcrumb" IS NOT NULL OR "breadcrumb_history"."event_json" IS NOT NULL) NOT VALID;
