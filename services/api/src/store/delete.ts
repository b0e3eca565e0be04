import { and, eq, sql } from "drizzle-orm";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError, VersionMismatchError } from "../errors.ts";
import { iso } from "./breadcrumb-json.ts";
import type { StoreDeps } from "./store-deps.ts";
import { runWrite, type WriteResult } from "./write.ts";
import { executeWrite } from "./write-statement.ts";

/** Removes the current row; history keeps every version and gains a `deleted` event carrying the last one. */
export async function deleteBreadcrumb(
  deps: StoreDeps,
  args: { owner: string; id: string; expectedVersion?: number },
): Promise<WriteResult> {
  const { owner, id, expectedVersion } = args;
  const { db } = deps.database;
  return runWrite(deps, owner, undefined, async () => {
    const versionCheck = expectedVersion !== undefined ? sql` AND version = ${expectedVersion}::int` : sql``;
    const written = await executeWrite(db, {
      owner,
      type: "deleted",
      at: iso(deps.now()),
      mutation: sql`DELETE FROM breadcrumbs WHERE id = ${id}::uuid AND owner = ${owner}${versionCheck}`,
    });
    if (!written) {
      // Only on a miss: tells 404 from 412. The delete itself never read first.
      const [current] = await db
        .select({ version: breadcrumbs.version })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner)));
      if (!current) throw new NotFoundError(`breadcrumb ${id} not found`);
      throw new VersionMismatchError(current.version);
    }
    return { status: 204, body: null, etag: null, event: written.event };
  });
}
