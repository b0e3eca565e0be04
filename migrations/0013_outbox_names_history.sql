-- An outbox row names its history row and holds no copy of the event: the relay publishes the
-- history row's event_json (kept since 0012, or built by crumbs_event_json for older rows), so an
-- event's bytes are stored once, for the bus and for replay alike. Each write built, compressed and
-- TOASTed a second 2-3 KB copy as jsonb (1.6 KB of WAL of its 9-10 KB per PATCH), and turned it back
-- into text for the relay. A row waiting now keeps its event: its history row holds the same event
-- (the foreign key keeps that row while it waits, and retention skips parked rows). Upgrade every API
-- replica together: a replica of an earlier version writes the dropped column.
ALTER TABLE "outbox" DROP COLUMN "payload";--> statement-breakpoint
ALTER TABLE "outbox_parked" DROP COLUMN "payload";--> statement-breakpoint
-- No read filters or orders history by (owner, at): /v1/events?since=&until= walks the owner's seq
-- order (docs/scaling.md, "Reads at scale"). A PATCH is never HOT, so every write paid for its entry.
DROP INDEX IF EXISTS "history_owner_at_idx";
