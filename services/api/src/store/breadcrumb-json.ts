import type { Breadcrumb } from "@crumbs/schemas";
import type { BreadcrumbRow } from "../db/schema.ts";

/** The contract shape of a breadcrumb: optional fields are absent, never null. */
export function breadcrumbFromRow(row: BreadcrumbRow): Breadcrumb {
  const out: Record<string, unknown> = {
    id: row.id,
    owner: row.owner,
    schema_name: row.schema_name,
    title: row.title,
    tags: row.tags,
    context: row.context,
  };
  if (row.llm_hints != null) out.llm_hints = row.llm_hints;
  if (row.key != null) out.key = row.key;
  out.version = row.version;
  out.created_at = iso(row.created_at);
  out.updated_at = iso(row.updated_at);
  out.created_by = row.created_by;
  out.updated_by = row.updated_by;
  if (row.expires_at != null) out.expires_at = iso(row.expires_at);
  return out as Breadcrumb;
}

export function iso(d: Date | string): string {
  return (d instanceof Date ? d : new Date(d)).toISOString();
}

/** `expires_at` for a `ttl_seconds` given at `now` (a create, or a PATCH that extends the expiry). */
export const expiresAfter = (now: Date, ttlSeconds: number): string => iso(new Date(now.getTime() + ttlSeconds * 1000));
