// A module of its own, so the API's config can import the default without loading the drivers.
import { availableParallelism } from "node:os";

/**
 * Connections per API process (CRUMBS_PG_POOL) when none is set: two per core of this machine, 4 to 16,
 * the usual sizing for a pool in front of Postgres (cores x 2, plus a little for disks), on the guess that
 * the database runs on a machine like this one (as with `docker compose up` and `npm start`).
 *
 * Why not one connection per concurrent writer: postgres-js pipelines statements onto busy connections
 * (up to 100 each), so a small pool does not cap the writes in flight, and each backend then works
 * through several statements per wake-up instead of sleeping and waking for every one. On the 2-core
 * bench machine (16 clients each its own owner, alternated runs of `npm run bench -- --only
 * write-path,event-latency`) a pool of 4 did 1,820-1,880 PATCH/s, 0.68-0.73x pgbench's 16 clients,
 * with 0.47-0.49 ms of Postgres CPU per write; 8 did 0.55-0.61x; 16 did 0.52-0.55x with 0.62-0.69 ms
 * (BENCHMARKS.md, "A pool of two connections per core"). The price is fewer commits per WAL flush
 * (0.48-0.50 flushes per write with 4 against 0.37-0.41 with 16): with a slow WAL disk, or Postgres
 * on a larger machine of its own, set CRUMBS_PG_POOL higher.
 */
export function defaultPgPool(cores: number = availableParallelism()): number {
  return Math.min(16, Math.max(4, 2 * cores));
}

export const DEFAULT_PG_POOL = defaultPgPool();
