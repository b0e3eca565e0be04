import { BudgetExceededError, compileSelector, subjectsForSelector, type EventTypeShort, type Selector } from "@crumbs/schemas";
import { coveringSubject } from "./filter-subject.ts";
import type { Breadcrumb } from "./known.ts";

export type { Selector };
/** The kind of change an event reports, as its subject spells it. */
export type EventKind = EventTypeShort;
/** One selector, or a list of which any may match (agent.def.v1 subscriptions are a list). */
export type SelectorInput = Selector | readonly Selector[];

function asList(input: SelectorInput): readonly Selector[] {
  return Array.isArray(input) ? input : [input as Selector];
}

/**
 * The shared selector engine, as a predicate over breadcrumbs. Throws on an invalid selector.
 * Matching is bounded (one evaluation budget per selector and breadcrumb): a selector that
 * outgrows it on a breadcrumb does not match that breadcrumb, rather than stopping the
 * subscription loop that called it.
 */
export function selectorMatcher(input: SelectorInput): (b: Breadcrumb) => boolean {
  const compiled = asList(input).map((s) => compileSelector(s));
  const safely = (c: (typeof compiled)[number], b: Breadcrumb) => {
    try {
      return c.matches(b);
    } catch (e) {
      if (e instanceof BudgetExceededError) return false;
      throw e;
    }
  };
  return (b) => compiled.some((c) => safely(c, b));
}

/** The one NATS filter subject that covers every event the selectors can match. */
export function filterSubjectFor(
  input: SelectorInput,
  opts: { owner?: string; types?: EventKind[] } = {},
): string {
  const list = asList(input);
  if (list.length === 0) return "crumbs._none_.>";
  return coveringSubject(list.flatMap((s) => subjectsForSelector(s, opts)));
}
