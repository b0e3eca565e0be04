import { and, eq } from "drizzle-orm";
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
  body: unknown;
  etag: string | null;
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
