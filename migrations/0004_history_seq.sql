-- seq no longer comes from one counter row every commit of every owner waited on: a sequence takes
-- no lock, and each write takes its owner's commit lock before drawing from it (store/owner-order.ts).
CREATE SEQUENCE "public"."history_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
-- Continue after every seq already given out, so seq stays unique and increasing per owner.
SELECT setval('"public"."history_seq"', GREATEST(
  (SELECT coalesce(max(value), 0) FROM "seq_counter"),
  (SELECT coalesce(max(seq), 0) FROM "breadcrumb_history"),
  (SELECT coalesce(max(seq), 0) FROM "outbox_parked")) + 1, false);--> statement-breakpoint
DROP TABLE "seq_counter" CASCADE;
