import { CrumbsError } from "../errors.ts";
import { findIdempotent, type IdempotencyInput, type StoredResponse } from "./idempotency.ts";
import type { CommittedEvent } from "./committed-event.ts";
import type { StoreDeps } from "./store-deps.ts";
import { isUniqueViolation } from "./write-statement.ts";

/** What every write to an existing breadcrumb names: whose, by whom, which, at which version. */
export interface VersionedWriteArgs {
  owner: string;
  actor: string;
  id: string;
  expectedVersion: number;
  idempotency?: IdempotencyInput;
}

export interface WriteResult {
  response: StoredResponse;
  /** True when the response is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * Runs one write. `write` sends it as a single autocommit statement (see
 * executeWrite), saving the idempotency row in that statement when a key is given.
 *
 * Idempotency: a key committed earlier replays its stored response. When a
 * request with the same key commits first while this one runs, this one fails
 * (unique violation on the key, or 404/409/412 because the first one already
 * changed the row); the stored response of the first is then the answer.
 */
export async function runWrite(
  deps: StoreDeps,
  owner: string,
  idem: IdempotencyInput | undefined,
  write: () => Promise<StoredResponse & { event?: CommittedEvent }>,
): Promise<WriteResult> {
  const { db } = deps.database;
  if (idem) {
    const earlier = await findIdempotent(db, owner, idem);
    if (earlier) return { response: earlier, replayed: true };
  }
  try {
    const { event, ...response } = await write();
    deps.onCommitted?.(owner, event);
    return { response, replayed: false };
  } catch (err) {
    if (!idem || !(isUniqueViolation(err) || err instanceof CrumbsError)) throw err;
    const earlier = await findIdempotent(db, owner, idem);
    if (!earlier) throw err;
    return { response: earlier, replayed: true };
  }
}

export const etagOf = (version: number) => `"${version}"`;
