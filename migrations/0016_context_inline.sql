-- A page context (2.7 KB of JSON, ~1.7 KB with lz4) is kept compressed inside its row instead of in
-- the TOAST table: MAIN compresses it in place, and a row target of 2,600 bytes leaves it there (at the
-- default 2,032 the compressed row was still over, so the value moved out). Every PATCH rewrites the
-- row (no update is HOT: updated_at and the context are indexed), and an out-of-line value cost a
-- TOAST row and its index entry for the new version and the deletion of the old one: 8,067 -> 7,139 B
-- of WAL per PATCH's statement (bench/tools/statement-cost.ts). Contexts that stay over the target
-- after compression still move out; rows already written keep theirs until they are next written.
ALTER TABLE "breadcrumbs" ALTER COLUMN "context" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "breadcrumbs" SET (toast_tuple_target = 2600);
