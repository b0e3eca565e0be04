CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "breadcrumb_history" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"breadcrumb_id" uuid NOT NULL,
	"owner" text NOT NULL,
	"version" integer NOT NULL,
	"event" text NOT NULL,
	"schema_name" text NOT NULL,
	"tags" text[] NOT NULL,
	"breadcrumb" jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "breadcrumbs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"schema_name" text NOT NULL,
	"title" text NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"context" jsonb NOT NULL,
	"llm_hints" jsonb,
	"key" text,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"updated_by" text NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" smallint NOT NULL,
	"response" jsonb,
	"etag" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_owner_key_pk" PRIMARY KEY("owner","key")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"msg_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seq_counter" (
	"id" smallint PRIMARY KEY NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_seq_breadcrumb_history_seq_fk" FOREIGN KEY ("seq") REFERENCES "public"."breadcrumb_history"("seq") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_token_hash_uq" ON "api_keys" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "history_breadcrumb_idx" ON "breadcrumb_history" USING btree ("breadcrumb_id","seq");--> statement-breakpoint
CREATE INDEX "history_owner_seq_idx" ON "breadcrumb_history" USING btree ("owner","seq");--> statement-breakpoint
CREATE INDEX "history_owner_at_idx" ON "breadcrumb_history" USING btree ("owner","at");--> statement-breakpoint
CREATE UNIQUE INDEX "breadcrumbs_owner_key_uq" ON "breadcrumbs" USING btree ("owner","key") WHERE "breadcrumbs"."key" is not null;--> statement-breakpoint
CREATE INDEX "breadcrumbs_tags_gin" ON "breadcrumbs" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "breadcrumbs_owner_schema_updated_idx" ON "breadcrumbs" USING btree ("owner","schema_name","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "breadcrumbs_owner_updated_idx" ON "breadcrumbs" USING btree ("owner","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idempotency_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("seq") WHERE "outbox"."published_at" is null;