import type { RouteDeps } from "./context.ts";

/**
 * Runs one page read in the owner's share (limits/owner-reads.ts): it reserves the page budget
 * for as long as the rows and the answer built from them are held.
 */
export async function ownerRead<T>(deps: Pick<RouteDeps, "ownerReads" | "pageMaxBytes">, owner: string, read: () => Promise<T>): Promise<T> {
  const release = await deps.ownerReads.acquire(owner, deps.pageMaxBytes);
  try {
    return await read();
  } finally {
    release();
  }
}
