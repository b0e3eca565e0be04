import type { Database } from "../db/database.ts";

export interface StoreDeps {
  database: Database;
  now(): Date;
  newId(): string;
  /** Called after every committed write (kicks the outbox relay, wakes SSE streams). */
  afterCommit?(owner: string): void;
}
