import type { Database } from "../db/database.ts";
import type { StoreDeps } from "../store/index.ts";
import type { ChangeNotifier } from "../notifier.ts";
import type { Principal } from "./auth.ts";
import type { StreamSlots } from "./stream-slots.ts";
import type { OwnerReadGate } from "../limits/owner-read-gate.ts";

/** `principal`: who the bearer token is; the rate limits, stream slots and read shares key by its owner. */
export type AppEnv = { Variables: { principal: Principal } };

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
  /** Bytes of row JSON per page (CRUMBS_PAGE_MAX_BYTES). */
  pageMaxBytes: number;
  /** Heavy reads per owner: every page read (lists, history, events, SSE) takes its turn here. */
  ownerReads: OwnerReadGate;
}
