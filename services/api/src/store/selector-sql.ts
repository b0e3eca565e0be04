import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Breadcrumb, Selector, WorkBudget } from "@crumbs/schemas";
import { textArray } from "./sql-helpers.ts";

/** A selector given by a client: its spec for the SQL prefilter, its compiled form for the rest. */
export interface SelectorFilter {
  spec: Selector;
  /** Throws BudgetExceededError when one row's evaluation outgrows `budget`. */
  matches(b: Breadcrumb, budget: WorkBudget): boolean;
}

/**
 * The clauses of a selector Postgres can check on indexed columns. The compiled
 * selector still runs on every row afterwards, so this only has to be a superset.
 */
export function selectorPrefilter(spec: Selector, cols: { schema_name: PgColumn; tags: PgColumn }): SQL[] {
  const out: SQL[] = [];
  if (typeof spec.schema_name === "string") out.push(sql`${cols.schema_name} = ${spec.schema_name}`);
  else if (Array.isArray(spec.schema_name)) out.push(sql`${cols.schema_name} = ANY(${textArray(spec.schema_name)})`);
  if (spec.all_tags?.length) out.push(sql`${cols.tags} @> ${textArray(spec.all_tags)}`);
  if (spec.any_tags?.length) out.push(sql`${cols.tags} && ${textArray(spec.any_tags)}`);
  if (spec.none_tags?.length) out.push(sql`NOT (${cols.tags} && ${textArray(spec.none_tags)})`);
  return out;
}

/** Whether anything is left for the compiled selector to decide after the SQL prefilter. */
export function needsPostFilter(spec: Selector): boolean {
  return (spec.context_match?.length ?? 0) > 0;
}
