import type { Logger } from "@crumbs/telemetry";
import { isDriverWriteFault } from "./connection-errors.ts";

export interface FaultGuardTarget {
  /** Drops the database's connections (Database.recover). */
  recover(reason: unknown): void;
  log: Logger;
}

const targets = new Set<FaultGuardTarget>();

/**
 * postgres-js 3.4.9 can throw a TypeError from a `setImmediate` callback
 * (`nextWrite` on a connection whose socket is already null), outside any
 * query's promise, when Postgres goes away mid-write (porsager/postgres#1154,
 * #1208; fixes in the open PRs #1168, #1209). Uncaught, it would kill the API
 * over a database blip. The supervisor keeps that write from being queued in
 * the paths we know; this is the backstop for the rest: that one error is
 * logged and the connections are dropped (the supervisor reconnects lazily).
 * Anything else keeps Node's default: printed, exit code 1.
 */
function onUncaughtException(err: unknown): void {
  if (isDriverWriteFault(err)) {
    for (const t of targets) {
      t.log.error({ err }, "postgres driver fault (porsager/postgres#1154), dropping its connections");
      t.recover(err);
    }
    return;
  }
  // Another listener decides for itself; alone, do what Node does without one.
  if (process.listenerCount("uncaughtException") > 1) return;
  process.stderr.write(`${err instanceof Error && err.stack ? err.stack : String(err)}\n`);
  process.exit(1);
}

/** Installs the guard while at least one target is registered; the returned function unregisters. */
export function guardDriverFaults(target: FaultGuardTarget): () => void {
  if (targets.size === 0) process.on("uncaughtException", onUncaughtException);
  targets.add(target);
  return () => {
    if (!targets.delete(target)) return;
    if (targets.size === 0) process.off("uncaughtException", onUncaughtException);
  };
}
