CREATE TABLE "outbox_parked" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"subject" text NOT NULL,
	"msg_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"parked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox_parked" ADD CONSTRAINT "outbox_parked_seq_breadcrumb_history_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."breadcrumb_history"("seq") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_parked_owner_idx" ON "outbox_parked" USING btree ("owner","seq");