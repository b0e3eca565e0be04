import { hash as digest, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { apiKeys } from "../db/schema.ts";
import type { PrincipalCache } from "../keys/principal-cache.ts";

import type { Principal } from "./principal.ts";

export type { Principal };

/** `hash` is hashToken(token), which the caller has made already. */
export type Authenticate = (token: string, hash: string) => Promise<Principal | undefined>;

export const ADMIN_OWNER = "default";

export const hashToken = (token: string) => digest("sha256", token, "hex");

/** Compares hashes, not tokens: equal lengths, so the comparison time says nothing about the token. */
function sameHash(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a, "latin1"), Buffer.from(b, "latin1"));
}

/**
 * A bearer token becomes an owner and scopes. CRUMBS_TOKEN is the admin of owner `default`;
 * other tokens are api_keys rows looked up by sha256, not revoked and not expired. With a
 * cache, a key seen recently costs no database round trip (keys/principal-cache.ts says how
 * revocation reaches every replica at once).
 */
export function createAuthenticator(opts: { adminToken?: string; db: Db; cache?: PrincipalCache }): Authenticate {
  const adminHash = opts.adminToken ? hashToken(opts.adminToken) : undefined;
  return async (_token, hash) => {
    if (adminHash && sameHash(hash, adminHash)) {
      return { owner: ADMIN_OWNER, scopes: ["*"], actor: "admin" };
    }
    const cached = opts.cache?.get(hash);
    if (cached) return cached;
    const [row] = await opts.db
      .select({
        id: apiKeys.id,
        owner: apiKeys.owner,
        scopes: apiKeys.scopes,
        name: apiKeys.name,
        expires_at: apiKeys.expires_at,
      })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.token_hash, hash),
          isNull(apiKeys.revoked_at),
          or(isNull(apiKeys.expires_at), gt(apiKeys.expires_at, sql`now()`)),
        ),
      );
    if (!row) return undefined;
    const principal: Principal = {
      owner: row.owner,
      scopes: row.scopes,
      actor: row.name ? `key:${row.name}` : `key:${row.id}`,
      keyId: row.id,
      keyExpiresAt: row.expires_at,
    };
    opts.cache?.set(hash, principal, row.expires_at);
    return principal;
  };
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1];
}
