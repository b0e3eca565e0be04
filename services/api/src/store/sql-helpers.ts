import { sql, type SQL } from "drizzle-orm";

/**
 * A text[] parameter, sent as the text of an array literal: the two drivers (postgres-js, PGlite)
 * disagree on how a JS array parameter is sent, and both send a string alike.
 *
 * Why a literal and not `ARRAY(SELECT jsonb_array_elements_text($1))`, which this was: the planner
 * cannot see into that subquery, so it guessed how many rows carry a tag without looking at the
 * tag, and for a tag on half of the rows chose to read all of them through the tags index and sort
 * them (143 ms at 100,000 breadcrumbs, growing with the table) instead of walking the owner's
 * newest rows until the page is full. With the value in the plan it uses the column's statistics.
 */
export function textArray(values: readonly string[]): SQL {
  return sql`${arrayLiteral(values)}::text[]`;
}

/** `{"a","b \"c\""}`: every element quoted, its backslashes and double quotes escaped. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${values.map(quotedElement).join(",")}}`;
}

/**
 * Where JSON.stringify would escape more than `"` and `\`: control characters (below U+0020) and lone surrogates.
 * Elsewhere a JSON string is exactly a quoted array element.
 */
const BEYOND_QUOTE_AND_BACKSLASH = /[^\u0020-\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The combined PATCH sends every context (JSON text, ~380 quotes in a 2.7 KB page context) in one
 * literal: escaping them with a replace callback took 30-40 us per context, JSON.stringify 10-12 us.
 * JSON text that JSON.stringify made never has a control character or a lone surrogate.
 */
function quotedElement(v: string): string {
  return BEYOND_QUOTE_AND_BACKSLASH.test(v) ? `"${v.replace(/[\\"]/g, "\\$&")}"` : JSON.stringify(v);
}
