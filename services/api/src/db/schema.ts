import { sql } from "drizzle-orm";
import { BREADCRUMB_ORDER, HISTORY_ORDER, indexKeys } from "./read-order.ts";
import {
  bigint,
  check,
  index,
  integer,
  pgSequence,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The current version of every live breadcrumb. A delete removes the row; history keeps it. */
export const breadcrumbs = pgTable(
  "breadcrumbs",
  {
    id: uuid("id").primaryKey(),
    owner: text("owner").notNull(),
    schema_name: text("schema_name").notNull(),
    title: text("title").notNull(),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    context: jsonb("context").$type<Record<string, unknown>>().notNull(),
    llm_hints: jsonb("llm_hints").$type<Record<string, unknown>>(),
    key: text("key"),
    version: integer("version").notNull(),
    created_at: ts("created_at").notNull(),
    updated_at: ts("updated_at").notNull(),
    created_by: text("created_by").notNull(),
    updated_by: text("updated_by").notNull(),
    expires_at: ts("expires_at"),
  },
  (t) => [
    uniqueIndex("breadcrumbs_owner_key_uq").on(t.owner, t.key).where(sql`${t.key} is not null`),
    index("breadcrumbs_tags_gin").using("gin", t.tags),
    // Lists: the owner's rows in BREADCRUMB_ORDER, all of them or one schema's (db/read-order.ts).
    index("breadcrumbs_owner_schema_updated_idx").on(t.owner, t.schema_name, ...indexKeys(t, BREADCRUMB_ORDER)),
    index("breadcrumbs_owner_updated_idx").on(t.owner, ...indexKeys(t, BREADCRUMB_ORDER)),
    // `?title=`: a case-insensitive substring (ILIKE '%word%') found through trigrams (pg_trgm).
    index("breadcrumbs_title_trgm").using("gin", t.title.op("gin_trgm_ops")),
    // context_match pushed into SQL (store/selector-pushdown.ts): `@?` jsonpath equality on any path.
    index("breadcrumbs_context_gin").using("gin", t.context.op("jsonb_path_ops")),
    // The sweeper's due rows, and the expired rows GET /v1/stats/schemas leaves out: only rows with a TTL.
    index("breadcrumbs_expires_idx").on(t.expires_at).where(sql`${t.expires_at} is not null`),
  ],
);

/**
 * One row per committed write. `seq` is unique, and within one owner strictly increasing in
 * commit order (store/owner-order.ts); across owners it says nothing about order, and it may skip.
 */
export const breadcrumbHistory = pgTable(
  "breadcrumb_history",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey(),
    breadcrumb_id: uuid("breadcrumb_id").notNull(),
    owner: text("owner").notNull(),
    version: integer("version").notNull(),
    event: text("event").$type<"created" | "updated" | "deleted">().notNull(),
    schema_name: text("schema_name").notNull(),
    tags: text("tags").array().notNull(),
    /**
     * The breadcrumb as written, for rows written before the event's text was kept (migration 0012).
     * NULL since 0014: the row's `event_json` holds the breadcrumb, and storing it twice was half the
     * WAL of a PATCH (history's TOAST, 3.9 KB of 7.4 KB).
     */
    breadcrumb: jsonb("breadcrumb").$type<Record<string, unknown>>(),
    at: ts("at").notNull(),
    /** An update by merge patch: the top-level context keys it changed (the event's `changed`). */
    changed: jsonb("changed").$type<string[]>(),
    /** The event's JSON text as the write statement built it (crumbs_event_json); NULL for rows written before it was kept. */
    event_json: text("event_json"),
  },
  (t) => [
    // One breadcrumb's history, and one owner's events (also the SSE backfill), in HISTORY_ORDER.
    index("history_breadcrumb_idx").on(t.breadcrumb_id, ...indexKeys(t, HISTORY_ORDER)),
    index("history_owner_seq_idx").on(t.owner, ...indexKeys(t, HISTORY_ORDER)),
    // Retention walks one schema's history per breadcrumb, newest first.
    index("history_schema_breadcrumb_idx").on(t.schema_name, t.breadcrumb_id, t.seq),
    // Every row keeps its breadcrumb: in the event's text, or (written before 0012) in `breadcrumb`.
    check("history_breadcrumb_kept", sql`${t.breadcrumb} IS NOT NULL OR ${t.event_json} IS NOT NULL`),
  ],
);

/**
 * Events waiting for the relay: every row here is unpublished. The relay deletes a row once
 * JetStream acked it (a crash in between republishes it, and Nats-Msg-Id dedup drops the copy).
 */
export const outbox = pgTable(
  "outbox",
  {
    seq: bigint("seq", { mode: "number" })
      .primaryKey()
      .references(() => breadcrumbHistory.seq),
    subject: text("subject").notNull(),
    msg_id: text("msg_id").notNull(),
    created_at: ts("created_at").notNull().defaultNow(),
  },
);

/**
 * Dead letters: outbox rows the relay could not publish for a reason retrying
 * will not fix (too large even as a reference event, an invalid subject), and
 * rows of the same owner held behind them so that owner's order holds.
 * `crumbs outbox retry` moves them back into the outbox.
 */
export const outboxParked = pgTable(
  "outbox_parked",
  {
    seq: bigint("seq", { mode: "number" })
      .primaryKey()
      .references(() => breadcrumbHistory.seq),
    owner: text("owner").notNull(),
    subject: text("subject").notNull(),
    msg_id: text("msg_id").notNull(),
    reason: text("reason").notNull(),
    created_at: ts("created_at").notNull(),
    parked_at: ts("parked_at").notNull().defaultNow(),
  },
  (t) => [index("outbox_parked_owner_idx").on(t.owner, t.seq)],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    owner: text("owner").notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    status: smallint("status").notNull(),
    response: jsonb("response").$type<unknown>(),
    etag: text("etag"),
    created_at: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index("idempotency_created_idx").on(t.created_at)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    owner: text("owner").notNull(),
    name: text("name"),
    token_hash: text("token_hash").notNull(),
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    created_at: ts("created_at").notNull().defaultNow(),
    expires_at: ts("expires_at"),
    revoked_at: ts("revoked_at"),
    /** The key that created this one (null: CRUMBS_TOKEN, or made before keys were traced): revoking it revokes this. */
    created_by: uuid("created_by"),
  },
  (t) => [
    uniqueIndex("api_keys_token_hash_uq").on(t.token_hash),
    index("api_keys_owner_idx").on(t.owner),
    index("api_keys_created_by_idx").on(t.created_by),
  ],
);

/**
 * Where every history row's seq comes from. A plain sequence takes no lock; what makes seq order
 * equal commit order within an owner is the owner's head row the write locks before drawing
 * from it (store/owner-order.ts).
 */
export const historySeq = pgSequence("history_seq");

/**
 * One row per owner that has written since this table exists: its latest seq and the one before.
 * Every write updates it (store/owner-order.ts), which is the owner's commit lock, and returns
 * `prev_seq`, which lets the relay publish an event it was handed in memory only when it has
 * handled the owner's previous one (outbox/relay.ts).
 */
export const ownerHeads = pgTable("owner_heads", {
  owner: text("owner").primaryKey(),
  last_seq: bigint("last_seq", { mode: "number" }).notNull(),
  prev_seq: bigint("prev_seq", { mode: "number" }),
});

/**
 * Live breadcrumbs per owner and schema, kept by the write statement that creates or deletes one
 * (store/schema-counts.ts), so GET /v1/stats/schemas reads a few rows instead of counting the
 * owner's. It counts rows, expired or not: the read subtracts the expired rows not yet swept.
 */
export const schemaCounts = pgTable(
  "schema_counts",
  {
    owner: text("owner").notNull(),
    schema_name: text("schema_name").notNull(),
    live: bigint("live", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.schema_name] })],
);

export const schema = { breadcrumbs, breadcrumbHistory, outbox, outboxParked, idempotencyKeys, apiKeys, historySeq, ownerHeads, schemaCounts };
export type BreadcrumbRow = typeof breadcrumbs.$inferSelect;
export type HistoryRow = typeof breadcrumbHistory.$inferSelect;
