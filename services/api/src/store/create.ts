import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { createBreadcrumbBodySchema } from "@crumbs/schemas";
import { breadcrumbs } from "../db/schema.ts";
import { KeyConflictError } from "../errors.ts";
import { expiresAfter, iso } from "./breadcrumb-json.ts";
import type { IdempotencyInput } from "./idempotency.ts";
import { textArray } from "./sql-helpers.ts";
import type { StoreDeps } from "./store-deps.ts";
import { etagOf, runWrite, type WriteResult } from "./write.ts";
import { executeWrite, jsonbOrNull } from "./write-statement.ts";

export type CreateInput = z.infer<typeof createBreadcrumbBodySchema>;

/** The caller has validated the body (known-schema context, hints): the schema name is known up front. */
export async function createBreadcrumb(
  deps: StoreDeps,
  args: { owner: string; actor: string; body: CreateInput; idempotency?: IdempotencyInput },
): Promise<WriteResult> {
  const { owner, actor, body, idempotency } = args;
  return runWrite(deps, owner, idempotency, async () => {
    const now = deps.now();
    const at = iso(now);
    const expiresAt = body.ttl_seconds != null ? expiresAfter(now, body.ttl_seconds) : null;
    const written = await executeWrite(deps.database.db, {
      owner,
      type: "created",
      at,
      idempotency: idempotency && { ...idempotency, status: 201 },
      // ON CONFLICT DO NOTHING: only the (owner, key) unique index can conflict, ids are fresh uuids.
      mutation: sql`
        INSERT INTO breadcrumbs (id, owner, schema_name, title, tags, context, llm_hints, key, version,
                                 created_at, updated_at, created_by, updated_by, expires_at)
        VALUES (${deps.newId()}::uuid, ${owner}, ${body.schema_name}, ${body.title}, ${textArray(body.tags ?? [])},
                ${JSON.stringify(body.context)}::jsonb, ${jsonbOrNull(body.llm_hints)}, ${body.key ?? null}::text, 1,
                ${at}::timestamptz, ${at}::timestamptz, ${actor}, ${actor}, ${expiresAt}::timestamptz)
        ON CONFLICT DO NOTHING`,
    });
    if (!written) {
      const [taken] = await deps.database.db
        .select({ id: breadcrumbs.id, version: breadcrumbs.version })
        .from(breadcrumbs)
        .where(and(eq(breadcrumbs.owner, owner), eq(breadcrumbs.key, body.key ?? "")));
      throw new KeyConflictError(taken ?? { id: "", version: 0 });
    }
    return { status: 201, body: written.body, etag: etagOf(written.version), id: written.id, event: written.event };
  });
}
