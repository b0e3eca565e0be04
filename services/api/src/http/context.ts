import type { Database } from "../db/database.ts";
import type { StoreDeps } from "../store/index.ts";
import type { ChangeNotifier } from "../notifier.ts";
import type { Principal } from "./auth.ts";
import type { StreamSlots } from "./stream-slots.ts";

/** `tokenHash`: the bearer token's SHA-256 (hashToken), made once by the auth middleware for whoever keys by token. */
export type AppEnv = { Variables: { principal: Principal; tokenHash: string } };

/** What the route files share, built once by createApp. */
export interface RouteDeps {
  database: Database;
  store: StoreDeps;
  bodyLimitBytes: number;
  schemaDefHints(owner: string, schemaName: string): Promise<unknown>;
  notifier: ChangeNotifier;
  ssePingMs: number;
  /** Open SSE streams per token. */
  streamSlots: StreamSlots;
}
