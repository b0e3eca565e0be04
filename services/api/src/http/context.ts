import type { Database } from "../db/database.ts";
import type { KeyChanges } from "../keys/key-changes.ts";
import type { StoreDeps } from "../store/index.ts";
import type { ChangeNotifier } from "../notifier.ts";
import type { Principal } from "./auth.ts";
import type { StreamSlots } from "./stream-slots.ts";

/**
 * `tokenHash`: the bearer token's SHA-256 (hashToken), made once by the auth middleware for whoever keys by token.
 * `stillAuthenticated`: whether the token still authenticates (not revoked, not expired), for what outlives its request.
 */
export type AppEnv = { Variables: { principal: Principal; tokenHash: string; stillAuthenticated: () => Promise<boolean> } };

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
  /** Some key was revoked (here or in another replica): open streams check theirs again. */
  keyChanges: KeyChanges;
}
