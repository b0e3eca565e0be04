-- The relay deletes an outbox row once JetStream acked it, instead of marking it published and
-- leaving it to a sweeper: one heap change per event instead of a row lock, a new row version with
-- its index entries, and a later delete (docs/architecture.md, "Transactional outbox").
-- Rows already published are done with; the rest are exactly the rows the relay still owes.
DELETE FROM "outbox" WHERE "published_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "outbox_pending_idx";--> statement-breakpoint
ALTER TABLE "outbox" DROP COLUMN "published_at";
