/**
 * The pure half of a history page step (history-page.ts): how many large rows the next statement
 * may size, and what the rows of a step say about the page.
 */

/** A row of a step: its size (null when the statement left it unsized) and whether it made the page. */
export interface StepRow {
  bytes: number | null;
  fits: boolean;
}

/**
 * Large rows (stored out of line) the next step may size: a few first, then as many as the large
 * rows seen so far say the rest of the budget holds, and one to look past them. Sizing a 700 KB
 * row costs Postgres its decompression and text conversion, so a history of them must not be
 * sized a thousand at a time to send five.
 */
export function nextLargeSized(seen: { rows: number; bytes: number }, bytesLeft: number): number {
  if (seen.rows === 0) return FIRST_LARGE;
  return Math.min(MAX_LARGE, Math.max(1, Math.ceil(bytesLeft / Math.max(1, seen.bytes / seen.rows)))) + 1;
}

const FIRST_LARGE = 4;
const MAX_LARGE = 1_024;

/**
 * What a step's rows (fitting ones first, then at most one that did not fit) say: `end` when
 * every candidate fitted (fewer rows than asked for exist), `continue` when the step stopped at a
 * large row it did not size or at its own row cap `stepRows` short of the page's (the page goes on
 * with another step), `more` when a row did not fit the budget (the page is full and rows follow).
 */
export function stepOutcome(rows: readonly StepRow[], stepRows: { asked: number; capped: boolean }): "end" | "continue" | "more" {
  const at = rows.findIndex((r) => !r.fits);
  if (at < 0) return "end";
  if (rows[at]!.bytes === null) return "continue";
  return stepRows.capped && at === stepRows.asked ? "continue" : "more";
}
