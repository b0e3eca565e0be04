// A module of its own, so the API's config can import the default without loading the drivers.

/**
 * Connections per API process (CRUMBS_PG_POOL). Each is one statement in flight, and a write spends most of
 * its time in Postgres waiting for the WAL flush, which every commit in flight at that moment shares: with
 * fewer connections than concurrent writers, fewer commits share each flush and the rest queue behind them
 * (postgres-js pipelines them onto busy connections).
 * 16 against 10, 16 clients each its own owner, alternated write-path runs: 784 against 728 PATCH/s (mean
 * of 12 rounds each), with less CPU per write in the API and in Postgres (BENCHMARKS.md).
 */
export const DEFAULT_PG_POOL = 16;
