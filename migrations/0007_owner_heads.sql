-- Each owner's latest seq and the one before it. Every write updates its owner's row, which is the
-- owner's commit lock (it replaces a transaction-scoped advisory lock), and returns prev_seq, so
-- the relay can tell that an event handed to it in memory follows the last one it published for
-- that owner (docs/architecture.md, "Transactional outbox"). Upgrade every API replica together:
-- a replica of an earlier version writes without this row.
CREATE TABLE "owner_heads" (
	"owner" text PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"prev_seq" bigint
);
--> statement-breakpoint
INSERT INTO "owner_heads" ("owner", "last_seq") SELECT "owner", max("seq") FROM "breadcrumb_history" GROUP BY "owner";
