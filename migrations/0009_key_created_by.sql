-- Which key created each key, so revoking a key revokes the keys it created, and theirs (keys/store.ts).
-- Keys made before this migration, and keys made with CRUMBS_TOKEN, have none.
ALTER TABLE "api_keys" ADD COLUMN "created_by" uuid;--> statement-breakpoint
CREATE INDEX "api_keys_created_by_idx" ON "api_keys" USING btree ("created_by");