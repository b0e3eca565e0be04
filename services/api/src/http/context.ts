import type { Database } from "../db/database.ts";
import type { KeyChanges } from "../keys/key-changes.ts";
import type { StoreDeps } from "../store/index.ts";
import type { ChangeNotifier } from "../notifier.ts";
import type { Principal } from "./auth.ts";
import type { StreamSlots } from "./stream-slots.ts";
import type { OwnerReadGate } from "../limits/owner-read-gate.ts";

/**
 * `principal`: who the bearer token is; the rate limits, stream slots and read shares key by its owner.
 * `stillAuthenticated`: whether the token still authenticates (not revoked, not expired), for what outlives its request.
 */
export type AppEnv = { Variables: { principal: Principal; stillAuthenticated: () => Promise<boolean> } };

/** What the route files share, built once by createApp. */
export interface RouteDeps {
  database: Database;
  store: StoreDeps;
  bodyLimitBytes: number;
  schemaDefHints(owner: string, schemaName: string): Promise<unknown>;
  notifier: ChangeNotifier;
  ssePingMs: number;
  /** Open SSE streams per owner. */
  streamSlots: StreamSlots;
  /** Some key was revoked (here or in another replica): open streams check theirs again. */
  keyChanges: KeyChanges;
  /** Bytes of row JSON per page (CRUMBS_PAGE_MAX_BYTES). */
  pageMaxBytes: number;
  /** Heavy reads per owner: every page read (lists, history, events, SSE) takes its turn here. */
  ownerReads: OwnerReadGate;
  /** Logs a failure the error handler cannot answer (an answer already streaming). */
  reportError: (msg: string, err: unknown) => void;
}
