import { and, eq, sql, type SQL } from "drizzle-orm";
import { applyMergePatch, changedKeys, type Breadcrumb, type MergePatchBreadcrumbBody } from "@crumbs/schemas";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError, VersionMismatchError } from "../errors.ts";
import { iso } from "./breadcrumb-json.ts";
import { notExpired } from "./read.ts";
import { recentContext, rememberContext } from "./recent-contexts.ts";
import { textArray } from "./sql-helpers.ts";
import type { StoreDeps } from "./store-deps.ts";
import { etagOf, runWrite, type VersionedWriteArgs, type WriteResult } from "./write.ts";
import { executeWrite } from "./write-statement.ts";
import type { ContentCheck } from "./write-schema-guard.ts";

/**
 * A merge patch (RFC 7396) of title, tags and context, written in one autocommit statement with
 * `WHERE ... version = expected`, plus history, outbox and seq like every write (executeWrite).
 *
 * The merged context must still pass its schema, and no zod runs in SQL, so the stored context is
 * needed here: from the contexts this process wrote last (recent-contexts.ts), else read by
 * primary key. The contract's applyMergePatch merges it once, here, which also names the top-level
 * keys it changes for the event; the statement stores that result. The version in the UPDATE's
 * WHERE makes the base exact: the row changes only if it is still the version merged here, so no
 * merge is repeated in SQL. Nothing is held across the round trips.
 */
export async function mergePatchBreadcrumb(
  deps: StoreDeps,
  args: VersionedWriteArgs & {
    body: MergePatchBreadcrumbBody;
    /** Checks the merged context against the row's schema (422 when it refuses; nothing written). */
    validate: ContentCheck;
  },
): Promise<WriteResult> {
  const { owner, actor, id, expectedVersion, body, idempotency } = args;
  const { db } = deps.database;
  const current = async () => {
    const [row] = await db
      .select({ version: breadcrumbs.version, schema_name: breadcrumbs.schema_name, context: breadcrumbs.context })
      .from(breadcrumbs)
      .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner), notExpired()));
    if (!row) throw new NotFoundError(`breadcrumb ${id} not found`);
    if (row.version !== expectedVersion) throw new VersionMismatchError(row.version);
    return row;
  };
  return runWrite(deps, owner, idempotency, async () => {
    const stored = recentContext(owner, id, expectedVersion) ?? (await current());
    let changed: string[] | undefined;
    let merged: Breadcrumb["context"] | undefined;
    if (body.context !== undefined) {
      merged = applyMergePatch(stored.context, body.context) as Breadcrumb["context"];
      args.validate.check({ schema_name: stored.schema_name, context: merged });
      changed = changedKeys(stored.context, merged);
    }
    const at = iso(deps.now());
    const set: SQL[] = [sql`version = version + 1`, sql`updated_at = ${at}::timestamptz`, sql`updated_by = ${actor}`];
    if (body.title !== undefined) set.push(sql`title = ${body.title}`);
    if (body.tags !== undefined) set.push(sql`tags = ${textArray(body.tags)}`);
    if (merged !== undefined) set.push(sql`context = ${JSON.stringify(merged)}::jsonb`);
    const written = await executeWrite(db, {
      owner,
      type: "updated",
      at,
      changed,
      idempotency: idempotency && { ...idempotency, status: 200 },
      mutation: sql`
        UPDATE breadcrumbs SET ${sql.join(set, sql`, `)}
        WHERE id = ${id}::uuid AND owner = ${owner} AND version = ${expectedVersion}::int
          AND (expires_at IS NULL OR expires_at > now())`,
    });
    // Another write came between the read and this statement: the read now says which miss it was.
    if (!written) await current();
    if (!written) throw new VersionMismatchError(expectedVersion);
    rememberContext(owner, written.id, written.version, { schema_name: written.schema_name, context: merged ?? stored.context });
    return { status: 200, body: written.body, etag: etagOf(written.version), id: written.id, event: written.event };
  });
}
