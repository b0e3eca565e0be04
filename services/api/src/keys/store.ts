import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "../db/database.ts";
import { apiKeys } from "../db/schema.ts";
import { hashToken } from "../http/auth.ts";
import type { ApiKeyView } from "@crumbs/schemas";

/** `crumbs_` + 32 random bytes: the prefix lets secret scanners recognise a leaked token. */
export const newApiToken = () => `crumbs_${randomBytes(32).toString("base64url")}`;

type Row = typeof apiKeys.$inferSelect;
const view = (r: Row): ApiKeyView => ({
  id: r.id,
  owner: r.owner,
  name: r.name,
  scopes: r.scopes,
  created_at: r.created_at.toISOString(),
  expires_at: r.expires_at?.toISOString() ?? null,
  revoked_at: r.revoked_at?.toISOString() ?? null,
});

/**
 * When a new key expires: as asked, but never after the key that creates it (`creatorExpiresAt`),
 * so no key outlives the one that granted it. Nothing asked: the creator's expiry (or never).
 */
export function clampedExpiry(now: Date, expiresInSeconds: number | undefined, creatorExpiresAt: Date | null | undefined): Date | null {
  const asked = expiresInSeconds ? new Date(now.getTime() + expiresInSeconds * 1000) : null;
  if (!creatorExpiresAt) return asked;
  return asked && asked < creatorExpiresAt ? asked : creatorExpiresAt;
}

/**
 * Only the sha256 of the token is stored; the token itself is returned once, here. `createdBy`
 * is the creating key (undefined for CRUMBS_TOKEN): revoking it revokes this one.
 */
export async function createApiKey(
  db: Db,
  input: { owner: string; scopes: string[]; name?: string; expiresAt: Date | null; createdBy?: string; now: Date },
): Promise<ApiKeyView & { token: string }> {
  const token = newApiToken();
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: randomUUID(),
      owner: input.owner,
      name: input.name ?? null,
      token_hash: hashToken(token),
      scopes: [...new Set(input.scopes)],
      created_at: input.now,
      expires_at: input.expiresAt,
      created_by: input.createdBy ?? null,
    })
    .returning();
  return { ...view(row as Row), token };
}

/** `owner` undefined lists every owner's keys (the `default` admin only). */
export async function listApiKeys(db: Db, owner: string | undefined): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(owner === undefined ? undefined : eq(apiKeys.owner, owner))
    .orderBy(desc(apiKeys.created_at), desc(apiKeys.id))
    .limit(1_000);
  return rows.map(view);
}

/** One key by id; `owner` undefined finds any owner's (the `default` admin only). */
export async function getApiKey(db: Db, id: string, owner: string | undefined): Promise<ApiKeyView | undefined> {
  const where: SQL[] = [eq(apiKeys.id, id)];
  if (owner !== undefined) where.push(eq(apiKeys.owner, owner));
  const [row] = await db.select().from(apiKeys).where(and(...where));
  return row ? view(row) : undefined;
}

/**
 * Every API process LISTENs here and drops its cached principals (keys/principal-cache.ts), so
 * a revoked key stops working at once in every replica, not after the cache TTL.
 */
export const KEYS_CHANNEL = "crumbs_api_keys";

/** A key revoked by a revocation: the one asked for, or one it created (directly or not). */
export interface RevokedKey {
  id: string;
  owner: string;
}

/**
 * Revokes key `id` of that owner (any owner when undefined) and every key it created, and theirs,
 * in one statement; the NOTIFY of each is sent when it commits. Undefined when no such key exists;
 * else the keys this call revoked (empty when all were already revoked: the first time is kept).
 * A key created by a root admin key for another owner is revoked with it too.
 */
export async function revokeApiKey(db: Db, id: string, owner: string | undefined, now: Date): Promise<RevokedKey[] | undefined> {
  const where: SQL[] = [eq(apiKeys.id, id)];
  if (owner !== undefined) where.push(eq(apiKeys.owner, owner));
  const [found] = await db.select({ id: apiKeys.id }).from(apiKeys).where(and(...where));
  if (!found) return undefined;
  // `union` (not `union all`) stops at a key already in the tree, so even a cycle would end.
  const rows = rowsOf<RevokedKey>(
    await db.execute(sql`
      with recursive tree(id) as (
        select ${id}::uuid
        union
        select k.id from ${apiKeys} k join tree on k.created_by = tree.id
      ), r as (
        update ${apiKeys} set ${sql.identifier(apiKeys.revoked_at.name)} = ${now.toISOString()}::timestamptz
        where ${apiKeys.id} in (select id from tree) and ${apiKeys.revoked_at} is null
        returning ${apiKeys.id} as id, ${apiKeys.owner} as owner
      )
      select r.id::text as id, r.owner, pg_notify(${KEYS_CHANNEL}, r.id::text) from r`),
  );
  return rows.map((r) => ({ id: r.id, owner: r.owner }));
}

/** The owner's keys revoked after `since`: what the owner's NATS account must still revoke (nats-auth/owner-bus.ts). */
export async function revokedApiKeysSince(db: Db, owner: string, since: Date): Promise<{ id: string; revokedAt: Date }[]> {
  const rows = await db
    .select({ id: apiKeys.id, revokedAt: apiKeys.revoked_at })
    .from(apiKeys)
    .where(and(eq(apiKeys.owner, owner), gt(apiKeys.revoked_at, since)));
  return rows.flatMap((r) => (r.revokedAt ? [{ id: r.id, revokedAt: r.revokedAt }] : []));
}
