import type { Database } from "../db/database.ts";
import type { CommittedEvent } from "../outbox/batch.ts";

/**
 * The one listener for committed writes, API writes and expiry alike: it wakes SSE streams and
 * hands `event` to the outbox relay, or kicks it when the write has none to hand over (an expiry's
 * transaction writes its outbox rows the old way).
 */
export type CommitListener = (owner: string, event?: CommittedEvent) => void;

export interface StoreDeps {
  database: Database;
  now(): Date;
  newId(): string;
  /** Called after every committed write. */
  onCommitted?: CommitListener;
}
