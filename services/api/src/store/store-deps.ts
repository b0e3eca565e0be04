import type { Database } from "../db/database.ts";
import type { CommittedEvent } from "./committed-event.ts";

/**
 * The one listener for committed writes, API writes and expiry alike: it wakes SSE streams and
 * hands `event` to the outbox relay, or kicks it when the caller has none to hand over.
 */
export type CommitListener = (owner: string, event?: CommittedEvent) => void;

export interface StoreDeps {
  database: Database;
  now(): Date;
  newId(): string;
  /** Called after every committed write. */
  onCommitted?: CommitListener;
}
