import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { createBreadcrumbBodySchema } from "@crumbs/schemas";
import { breadcrumbs } from "../db/schema.ts";
import { KeyConflictError } from "../errors.ts";
import { breadcrumbFromRow } from "./breadcrumb-json.ts";
import type { IdempotencyInput } from "./idempotency.ts";
import type { StoreDeps } from "./store-deps.ts";
import { etagOf, runWrite, type WriteResult } from "./write.ts";

export type CreateInput = z.infer<typeof createBreadcrumbBodySchema>;

export async function createBreadcrumb(
  deps: StoreDeps,
  args: { owner: string; actor: string; body: CreateInput; idempotency?: IdempotencyInput },
): Promise<WriteResult> {
  const { owner, actor, body } = args;
  return runWrite(deps, owner, args.idempotency, async (tx) => {
    const now = deps.now();
    const expiresAt = body.ttl_seconds != null ? new Date(now.getTime() + body.ttl_seconds * 1000) : null;
    const inserted = await tx
      .insert(breadcrumbs)
      .values({
        id: deps.newId(),
        owner,
        schema_name: body.schema_name,
        title: body.title,
        tags: body.tags ?? [],
        context: body.context as Record<string, unknown>,
        llm_hints: (body.llm_hints ?? null) as Record<string, unknown> | null,
        key: body.key ?? null,
        version: 1,
        created_at: now,
        updated_at: now,
        created_by: actor,
        updated_by: actor,
        expires_at: expiresAt,
      })
      .onConflictDoNothing()
      .returning();
    const row = inserted[0];
    if (!row) {
      // Only the (owner, key) unique index can conflict: ids are fresh uuids.
      const [taken] = await tx
        .select({ id: breadcrumbs.id, version: breadcrumbs.version })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.owner, owner), eq(breadcrumbs.key, body.key ?? "")));
      throw new KeyConflictError(taken ?? { id: "", version: 0 });
    }
    const breadcrumb = breadcrumbFromRow(row);
    return {
      type: "created",
      breadcrumb,
      at: breadcrumb.updated_at,
      response: { status: 201, body: breadcrumb, etag: etagOf(row.version) },
    };
  });
}
