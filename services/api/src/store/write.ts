import type { Breadcrumb } from "@crumbs/schemas";
import type { Tx } from "../db/database.ts";
import { findIdempotent, IdempotencyRace, saveIdempotent, type IdempotencyInput, type StoredResponse } from "./idempotency.ts";
import { recordChange, type ChangeType } from "./record-change.ts";
import type { StoreDeps } from "./store-deps.ts";

export interface WriteResult {
  response: StoredResponse;
  /** True when the response is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface Change {
  type: ChangeType;
  breadcrumb: Breadcrumb;
  at: string;
  response: StoredResponse;
}

/**
 * Runs one write transaction: `mutate` changes the breadcrumbs table and
 * describes the change; then the idempotency row, then history + outbox as the
 * last statement. Any throw rolls everything back.
 */
export async function runWrite(
  deps: StoreDeps,
  owner: string,
  idem: IdempotencyInput | undefined,
  mutate: (tx: Tx) => Promise<Change>,
): Promise<WriteResult> {
  const { db } = deps.database;
  if (idem) {
    const earlier = await findIdempotent(db, owner, idem);
    if (earlier) return { response: earlier, replayed: true };
  }
  try {
    const response = await db.transaction(async (tx) => {
      const change = await mutate(tx);
      if (idem) await saveIdempotent(tx, owner, idem, change.response);
      await recordChange(tx, change.type, change.breadcrumb, change.at);
      return change.response;
    });
    deps.afterCommit?.(owner);
    return { response, replayed: false };
  } catch (err) {
    if (!(err instanceof IdempotencyRace) || !idem) throw err;
    const earlier = await findIdempotent(db, owner, idem);
    if (!earlier) throw err;
    return { response: earlier, replayed: true };
  }
}

export const etagOf = (version: number) => `"${version}"`;
