import { and, eq, type SQL } from "drizzle-orm";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError, VersionMismatchError } from "../errors.ts";
import { breadcrumbFromRow, iso } from "./breadcrumb-json.ts";
import type { StoreDeps } from "./store-deps.ts";
import { runWrite, type WriteResult } from "./write.ts";

/** Removes the current row; history keeps every version and gains a `deleted` event carrying the last one. */
export async function deleteBreadcrumb(
  deps: StoreDeps,
  args: { owner: string; id: string; expectedVersion?: number },
): Promise<WriteResult> {
  const { owner, id, expectedVersion } = args;
  return runWrite(deps, owner, undefined, async (tx) => {
    const conditions: SQL[] = [eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner)];
    if (expectedVersion !== undefined) conditions.push(eq(breadcrumbs.version, expectedVersion));
    const [row] = await tx
      .delete(breadcrumbs)
      .where(and(...conditions))
      .returning();
    if (!row) {
      const [current] = await tx
        .select({ version: breadcrumbs.version })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner)));
      if (!current) throw new NotFoundError(`breadcrumb ${id} not found`);
      throw new VersionMismatchError(current.version);
    }
    return {
      type: "deleted",
      breadcrumb: breadcrumbFromRow(row),
      at: iso(deps.now()),
      response: { status: 204, body: null, etag: null },
    };
  });
}
