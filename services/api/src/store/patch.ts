import { and, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Breadcrumb, patchBreadcrumbBodySchema } from "@crumbs/schemas";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError, VersionMismatchError } from "../errors.ts";
import { expiresAfter, iso } from "./breadcrumb-json.ts";
import { notExpired } from "./read.ts";
import { rememberContext } from "./recent-contexts.ts";
import { textArray } from "./sql-helpers.ts";
import type { StoreDeps } from "./store-deps.ts";
import { etagOf, runWrite, type VersionedWriteArgs, type WriteResult } from "./write.ts";
import { executeWrite, jsonbOrNull } from "./write-statement.ts";
import { refusedGuard, type ContentCheck } from "./write-schema-guard.ts";
import { patchCombinerOf } from "./combined-write-statement.ts";

export type PatchInput = z.infer<typeof patchBreadcrumbBodySchema>;

/**
 * Optimistic update in one autocommit statement: `UPDATE ... WHERE id AND owner
 * AND version = expected` plus its history, outbox and seq (see executeWrite).
 * Never read-then-write; the read after a miss only tells 404 from 412 (or 422).
 */
export async function patchBreadcrumb(
  deps: StoreDeps,
  args: VersionedWriteArgs & {
    body: PatchInput;
    /**
     * Checks a new context against the row's schema (422 when it refuses). The row's schema
     * is not read first: the update applies only where the row's schema is one this accepts.
     */
    validate?: ContentCheck;
  },
): Promise<WriteResult> {
  const { owner, actor, id, expectedVersion, body, idempotency } = args;
  const { db } = deps.database;
  const refused = args.validate && body.context !== undefined ? args.validate.refusing(body.context) : undefined;
  const guard = refused && refusedGuard(refused);
  const contextText = body.context !== undefined ? JSON.stringify(body.context) : undefined;
  return runWrite(deps, owner, idempotency, async () => {
    const now = deps.now();
    const at = iso(now);
    // Built only when the write runs alone: a combined write never uses it.
    const single = () => {
      const set: SQL[] = [sql`version = version + 1`, sql`updated_at = ${at}::timestamptz`, sql`updated_by = ${actor}`];
      if (body.title !== undefined) set.push(sql`title = ${body.title}`);
      if (body.tags !== undefined) set.push(sql`tags = ${textArray(body.tags)}`);
      if (contextText !== undefined) set.push(sql`context = ${contextText}::jsonb`);
      if (body.llm_hints !== undefined) set.push(sql`llm_hints = ${jsonbOrNull(body.llm_hints)}`);
      if (body.ttl_seconds !== undefined) set.push(sql`expires_at = ${expiresAfter(now, body.ttl_seconds)}::timestamptz`);
      return executeWrite(db, {
        owner,
        type: "updated",
        at,
        idempotency: idempotency && { ...idempotency, status: 200 },
        mutation: sql`
          UPDATE breadcrumbs SET ${sql.join(set, sql`, `)}
          WHERE id = ${id}::uuid AND owner = ${owner} AND version = ${expectedVersion}::int
            AND (expires_at IS NULL OR expires_at > now())${guard ? sql` AND ${guard}` : sql``}`,
      });
    };
    // A PATCH of the context alone, without an Idempotency-Key, may share a statement with others'.
    const combinable = contextText !== undefined && onlyContext(body) && !idempotency && refused !== "all";
    const combiner = combinable ? patchCombinerOf(db) : undefined;
    const written =
      combinable && combiner
        ? await combiner.write({ id, owner, actor, expectedVersion, at, context: contextText, refused: refused ?? [], alone: single })
        : await single();
    if (!written) {
      const [current] = await db
        .select({ version: breadcrumbs.version, schema_name: breadcrumbs.schema_name })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner), notExpired()));
      if (!current) throw new NotFoundError(`breadcrumb ${id} not found`);
      if (current.version === expectedVersion && body.context !== undefined) {
        // The version matched, so the schema guard refused: the check throws the 422 it describes.
        args.validate?.check({ schema_name: current.schema_name, context: body.context as Breadcrumb["context"] });
      }
      throw new VersionMismatchError(current.version);
    }
    if (body.context !== undefined) {
      rememberContext(owner, written.id, written.version, { schema_name: written.schema_name, context: body.context });
    }
    return { status: 200, body: written.body, etag: etagOf(written.version), id: written.id, event: written.event };
  });
}

/** True when the body changes nothing but the context (the combined statement's shape). */
function onlyContext(body: PatchInput): boolean {
  return body.title === undefined && body.tags === undefined && body.llm_hints === undefined && body.ttl_seconds === undefined;
}
