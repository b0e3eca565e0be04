import type { Database } from "../db/database.ts";
import type { CommittedEvent } from "../outbox/batch.ts";

export interface StoreDeps {
  database: Database;
  now(): Date;
  newId(): string;
  /**
   * Called after every committed write (wakes SSE streams; hands `event` to the outbox relay, or
   * kicks it when the write has none to hand over, e.g. an expiry's transaction).
   */
  afterCommit?(owner: string, event?: CommittedEvent): void;
}
