-- Reads served by indexes at any size (docs/scaling.md, "Reads at scale"). pg_trgm is trusted
-- (Postgres 13+), so the database owner may create it; Debian ships it in postgresql-15 and
-- PGlite loads it in db/pglite/open.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- Live breadcrumbs per owner and schema, kept by every create and delete (store/schema-counts.ts).
-- Upgrade every API replica together: a replica of an earlier version writes without updating it.
CREATE TABLE "schema_counts" (
	"owner" text NOT NULL,
	"schema_name" text NOT NULL,
	"live" bigint NOT NULL,
	CONSTRAINT "schema_counts_owner_schema_name_pk" PRIMARY KEY("owner","schema_name")
);
--> statement-breakpoint
INSERT INTO "schema_counts" ("owner", "schema_name", "live")
SELECT "owner", "schema_name", count(*) FROM "breadcrumbs" GROUP BY "owner", "schema_name";
--> statement-breakpoint
CREATE INDEX "breadcrumbs_title_trgm" ON "breadcrumbs" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "breadcrumbs_context_gin" ON "breadcrumbs" USING gin ("context" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "breadcrumbs_expires_idx" ON "breadcrumbs" USING btree ("expires_at") WHERE "breadcrumbs"."expires_at" is not null;
