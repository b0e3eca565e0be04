import { sql, type SQL } from "drizzle-orm";
import type { Breadcrumb } from "@crumbs/schemas";
import { textArray } from "./sql-helpers.ts";

/**
 * The rule a new context must meet for its schema, in the two forms a write needs. The HTTP layer
 * defines it (http/validate-write.ts); the store only asks it.
 */
export interface ContentCheck {
  /** Throws (e.g. 422 schema_validation_failed) when the context does not suit the schema. */
  check(b: Pick<Breadcrumb, "schema_name" | "context">): void;
  /**
   * The same rule for every schema at once: the known schemas `check` refuses `context` for, or
   * "all" when it refuses every schema, known or not. Must agree with `check` exactly.
   */
  refusing(context: unknown): "all" | readonly string[];
}

/**
 * A WHERE clause on `schema_name` admitting exactly the schemas whose check accepts the
 * context, from what the check's `refusing` gave for it (undefined: all of them). A PATCH
 * replaces the context wholesale but does not know the row's schema without reading it; with
 * this clause the check still happens before anything commits, and the update stays one
 * statement. The combined statement takes the same list as a parameter instead.
 */
export function refusedGuard(refused: "all" | readonly string[]): SQL | undefined {
  if (refused === "all") return sql`false`;
  return refused.length === 0 ? undefined : sql`schema_name <> ALL(${textArray([...refused])})`;
}
