import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Breadcrumb } from "@crumbs/schemas";
import type { Executor } from "../db/database.ts";
import { breadcrumbs } from "../db/schema.ts";
import { NotFoundError } from "../errors.ts";
import { breadcrumbFromRow } from "./breadcrumb-json.ts";

/** A breadcrumb past its `expires_at` no longer exists for readers and writers. */
export const notExpired = () => or(isNull(breadcrumbs.expires_at), gt(breadcrumbs.expires_at, sql`now()`));

export async function getBreadcrumb(db: Executor, owner: string, id: string): Promise<Breadcrumb> {
  const [row] = await db
    .select()
    .from(breadcrumbs)
    .where(and(eq(breadcrumbs.id, id), eq(breadcrumbs.owner, owner), notExpired()));
  if (!row) throw new NotFoundError(`breadcrumb ${id} not found`);
  return breadcrumbFromRow(row);
}
