import { sql, type SQL } from "drizzle-orm";

/**
 * A text[] parameter built server-side from JSON, because the two drivers
 * (postgres-js, PGlite) disagree on how a JS array parameter is sent.
 */
export function textArray(values: readonly string[]): SQL {
  return sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}
