import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Breadcrumb, Selector, WorkBudget } from "@crumbs/schemas";
import { splitContextMatch } from "./selector-pushdown.ts";
import { textArray } from "./sql-helpers.ts";

/** A selector given by a client: its spec for the SQL prefilter, its compiled form for the rest. */
export interface SelectorFilter {
  spec: Selector;
  /** Throws BudgetExceededError when one row's evaluation outgrows `budget`. */
  matches(b: Breadcrumb, budget: WorkBudget): boolean;
}

/** The columns a selector is checked on; `context` only where its GIN index exists (breadcrumbs). */
interface SelectorColumns {
  schema_name: PgColumn;
  tags: PgColumn;
  context?: PgColumn;
}

/**
 * The clauses of a selector Postgres can check on indexed columns: schema and tags, and on
 * breadcrumbs the `context_match` conditions its GIN index serves (selector-pushdown.ts). Where
 * needsPostFilter is true the compiled selector still runs on every row afterwards, so this must
 * be a superset of the matches; where it is false, it must be exactly them.
 */
export function selectorPrefilter(spec: Selector, cols: SelectorColumns): SQL[] {
  const out: SQL[] = [];
  if (cols.context) for (const path of splitContextMatch(spec).pushed) out.push(sql`${cols.context} @? ${path}::jsonpath`);
  if (typeof spec.schema_name === "string") out.push(sql`${cols.schema_name} = ${spec.schema_name}`);
  else if (Array.isArray(spec.schema_name)) out.push(sql`${cols.schema_name} = ANY(${textArray(spec.schema_name)})`);
  if (spec.all_tags?.length) out.push(sql`${cols.tags} @> ${textArray(spec.all_tags)}`);
  if (spec.any_tags?.length) out.push(sql`${cols.tags} && ${textArray(spec.any_tags)}`);
  if (spec.none_tags?.length) out.push(sql`NOT (${cols.tags} && ${textArray(spec.none_tags)})`);
  return out;
}

/** Whether anything is left for the compiled selector to decide after the SQL prefilter. */
export function needsPostFilter(spec: Selector, cols: SelectorColumns): boolean {
  if (!cols.context) return (spec.context_match?.length ?? 0) > 0;
  return splitContextMatch(spec).rest.length > 0;
}
