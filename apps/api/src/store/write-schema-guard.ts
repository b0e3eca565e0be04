import { sql, type SQL } from "drizzle-orm";
import { knownContextSchemas, type Breadcrumb } from "@crumbs/schemas";
import { textArray } from "./sql-helpers.ts";

/** Throws (e.g. 422 schema_validation_failed) when a context does not suit a schema. */
export type ContentCheck = (b: Pick<Breadcrumb, "schema_name" | "context">) => void;

/** Any name that is not a known schema: unknown schemas all accept the same contexts. */
const UNKNOWN_SCHEMA = "crumbs.any-unknown-schema.v1";

/**
 * A WHERE clause on `schema_name` admitting exactly the schemas whose check accepts
 * `context` (undefined: all of them). A PATCH replaces the context wholesale but does
 * not know the row's schema without reading it; with this clause the check still
 * happens before anything commits, and the update stays one statement.
 */
export function schemaGuard(check: ContentCheck, context: unknown): SQL | undefined {
  const accepts = (schema_name: string) => {
    try {
      check({ schema_name, context: context as Breadcrumb["context"] });
      return true;
    } catch {
      return false;
    }
  };
  const known = Object.keys(knownContextSchemas) as (keyof typeof knownContextSchemas)[];
  if ((known as string[]).includes(UNKNOWN_SCHEMA)) throw new Error(`${UNKNOWN_SCHEMA} must not be a known schema`);
  // What every schema checks (an object, no __proto__ key, hints that compile) is what an unknown
  // schema checks: if that fails, no schema accepts the context. Otherwise only the known schemas
  // whose zod shape accepts it are run through the full check. This keeps a PATCH from building
  // one thrown error per known schema (most of its CPU before: pprof of the write-path bench).
  if (!accepts(UNKNOWN_SCHEMA)) return sql`false`;
  const accepted = known.filter(
    (k) => !lacksRequiredKey(k, context) && knownContextSchemas[k]?.safeParse(context).success && accepts(k),
  );
  const refused = known.filter((k) => !accepted.includes(k));
  return refused.length === 0 ? undefined : sql`schema_name <> ALL(${textArray(refused)})`;
}

/**
 * Per known object schema, the keys whose value schema refuses `undefined`: a context without one
 * of them can never parse, so the guard refuses that schema without running zod on the whole
 * context (a page context costs about 5 µs per schema that way; 8 schemas were most of the guard).
 */
const requiredKeys = new Map<string, readonly string[]>();
for (const [name, schema] of Object.entries(knownContextSchemas)) {
  const shape = (schema as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  if (shape && typeof shape === "object") {
    requiredKeys.set(name, Object.keys(shape).filter((key) => !shape[key]!.safeParse(undefined).success));
  }
}

function lacksRequiredKey(schemaName: string, context: unknown): boolean {
  const keys = requiredKeys.get(schemaName);
  if (!keys) return false;
  const c = context as Record<string, unknown>;
  return keys.some((key) => !Object.hasOwn(c, key) || c[key] === undefined);
}
