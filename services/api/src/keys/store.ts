import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/database.ts";
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

/** Only the sha256 of the token is stored; the token itself is returned once, here. */
export async function createApiKey(
  db: Db,
  input: { owner: string; scopes: string[]; name?: string; expiresInSeconds?: number; now: Date },
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
      expires_at: input.expiresInSeconds ? new Date(input.now.getTime() + input.expiresInSeconds * 1000) : null,
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

/** True when a key of that owner (any owner when undefined) was found; revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, id: string, owner: string | undefined, now: Date): Promise<boolean> {
  const where: SQL[] = [eq(apiKeys.id, id)];
  if (owner !== undefined) where.push(eq(apiKeys.owner, owner));
  const [found] = await db.select({ id: apiKeys.id }).from(apiKeys).where(and(...where));
  if (!found) return false;
  // One statement: the NOTIFY is sent when the update commits, never for an update that did not.
  const ownerClause = owner === undefined ? sql`` : sql` and ${apiKeys.owner} = ${owner}`;
  await db.execute(sql`
    with r as (
      update ${apiKeys} set ${sql.identifier(apiKeys.revoked_at.name)} = ${now.toISOString()}::timestamptz
      where ${apiKeys.id} = ${id}${ownerClause} and ${apiKeys.revoked_at} is null
      returning ${apiKeys.id}
    )
    select pg_notify(${KEYS_CHANNEL}, r.id::text) from r`);
  return true;
}

/** The owner's keys revoked after `since`: what the owner's NATS account must still revoke (nats-auth/owner-bus.ts). */
export async function revokedApiKeysSince(db: Db, owner: string, since: Date): Promise<{ id: string; revokedAt: Date }[]> {
  const rows = await db
    .select({ id: apiKeys.id, revokedAt: apiKeys.revoked_at })
    .from(apiKeys)
    .where(and(eq(apiKeys.owner, owner), gt(apiKeys.revoked_at, since)));
  return rows.flatMap((r) => (r.revokedAt ? [{ id: r.id, revokedAt: r.revokedAt }] : []));
}
