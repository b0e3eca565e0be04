import { and, eq, sql } from "drizzle-orm";
import { rowsOf } from "../db/database.ts";
import { idempotencyKeys } from "../db/schema.ts";
import type { Executor } from "../db/database.ts";
import { IdempotencyKeyReusedError } from "../errors.ts";

export interface IdempotencyInput {
  key: string;
  /** Hash of what makes two requests "the same" (method, path, body, preconditions). */
  fingerprint: string;
}

export interface StoredResponse {
  status: number;
  /** A JSON value, or JsonText (write-statement.ts) when the statement returned it as text. */
  body: unknown;
  etag: string | null;
  /** The breadcrumb the answer is about, when the write returned it (a replayed answer has it in its body). */
  id?: string;
}

/** The stored first response for this key, or undefined. A different fingerprint is a client bug: 422. */
export async function findIdempotent(
  db: Executor,
  owner: string,
  input: IdempotencyInput,
): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, input.key)));
  if (!row) return undefined;
  if (row.fingerprint !== input.fingerprint) throw new IdempotencyKeyReusedError();
  return { status: row.status, body: row.response, etag: row.etag };
}

/**
 * Deletes up to `limit` keys older than `ttlSeconds` (the sweeper's job): a key
 * guards retries of one request, not forever. The created_at index keeps it cheap.
 */
export async function pruneIdempotencyKeys(db: Executor, ttlSeconds: number, limit: number): Promise<number> {
  const rows = rowsOf(
    await db.execute(sql`
      delete from idempotency_keys where (owner, key) in (
        select owner, key from idempotency_keys
        where created_at < now() - make_interval(secs => ${ttlSeconds}::int)
        order by created_at limit ${limit})
      returning key`),
  );
  return rows.length;
}
