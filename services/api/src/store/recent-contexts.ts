import { LruCache } from "@crumbs/schemas";

/**
 * The contexts of the versions this process wrote last, by owner, id and version, so that a merge
 * patch on the version a client just got back (the extension's living page context: every update
 * patches the version it wrote before) needs no read of the row first. A version's context never
 * changes, and the write's `WHERE version = expected` still decides, so an entry can only be
 * missing, never wrong: a miss (another replica wrote it, or it was evicted) reads the row.
 * Measured on the context-patch bench: the read made a merge patch's PATCH take about twice as long
 * as a full one (11.6 ms against 5.8 ms p50, one client).
 */
export interface RecentContext {
  schema_name: string;
  context: Record<string, unknown>;
}

// About 1,000 page contexts of 2-3 KB of JSON: a few MB of heap at most.
const recent = new LruCache<string, RecentContext>(1_000);
const keyOf = (owner: string, id: string, version: number) => `${owner}\u0000${id}\u0000${version}`;

export function rememberContext(owner: string, id: string, version: number, value: RecentContext): void {
  recent.set(keyOf(owner, id, version), value);
}

export function recentContext(owner: string, id: string, version: number): RecentContext | undefined {
  return recent.get(keyOf(owner, id, version));
}
