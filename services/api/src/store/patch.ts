import { and, eq, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Breadcrumb, patchBreadcrumbBodySchema } from "@crumbs/schemas";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError, VersionMismatchError } from "../errors.ts";
import { breadcrumbFromRow } from "./breadcrumb-json.ts";
import type { IdempotencyInput } from "./idempotency.ts";
import type { StoreDeps } from "./store-deps.ts";
import { etagOf, runWrite, type WriteResult } from "./write.ts";
import { notExpired } from "./read.ts";

export type PatchInput = z.infer<typeof patchBreadcrumbBodySchema>;

/**
 * Optimistic update in one statement: `UPDATE ... WHERE id AND owner AND
 * version = expected`. Never read-then-write; the read after a miss only
 * tells 404 from 412.
 */
export async function patchBreadcrumb(
  deps: StoreDeps,
  args: {
    owner: string;
    actor: string;
    id: string;
    expectedVersion: number;
    body: PatchInput;
    /** Checks the resulting breadcrumb (known-schema context) before anything commits. */
    validate?: (b: Breadcrumb) => void;
    idempotency?: IdempotencyInput;
  },
): Promise<WriteResult> {
  const { owner, actor, id, expectedVersion, body } = args;
  return runWrite(deps, owner, args.idempotency, async (tx) => {
    const set: Omit<Partial<typeof breadcrumbs.$inferInsert>, "version"> & { version: SQL } = {
      version: sql`${breadcrumbs.version} + 1`,
      updated_at: deps.now(),
      updated_by: actor,
    };
    if (body.title !== undefined) set.title = body.title;
    if (body.tags !== undefined) set.tags = body.tags;
    if (body.context !== undefined) set.context = body.context as Record<string, unknown>;
    if (body.llm_hints !== undefined) set.llm_hints = body.llm_hints as Record<string, unknown> | null;
    const [row] = await tx
      .update(breadcrumbs)
      .set(set)
      .where(
        and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner), eq(breadcrumbs.version, expectedVersion), notExpired()),
      )
      .returning();
    if (!row) {
      const [current] = await tx
        .select({ version: breadcrumbs.version })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner), notExpired()));
      if (!current) throw new NotFoundError(`breadcrumb ${id} not found`);
      throw new VersionMismatchError(current.version);
    }
    const breadcrumb = breadcrumbFromRow(row);
    args.validate?.(breadcrumb);
    return {
      type: "updated",
      breadcrumb,
      at: breadcrumb.updated_at,
      response: { status: 200, body: breadcrumb, etag: etagOf(row.version) },
    };
  });
}
