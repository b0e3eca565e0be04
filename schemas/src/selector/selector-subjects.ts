import { InvalidSelectorError } from "../contract/errors.ts";
import { EVENT_TYPES_SHORT, SUBJECT_PREFIX, type EventTypeShort } from "../contract/events.ts";
import { OWNER_PATTERN } from "../contract/names.ts";
import { compileSelector, type CompiledSelector } from "./selector-compile.ts";

export interface SubjectOptions {
  owner?: string;
  types?: EventTypeShort[];
}

function selectorOf(s: unknown): CompiledSelector {
  if (typeof s === "object" && s !== null && typeof (s as CompiledSelector).matches === "function" && "selector" in s) {
    return s as CompiledSelector;
  }
  return compileSelector(s);
}

function typeTokens(types: EventTypeShort[] | undefined): string[] {
  if (!types || types.length === 0) return ["*"];
  const uniq = [...new Set(types)];
  for (const t of uniq) if (!EVENT_TYPES_SHORT.includes(t)) throw new InvalidSelectorError(`unknown event type ${String(t)}`);
  return uniq.length === EVENT_TYPES_SHORT.length ? ["*"] : uniq;
}

/**
 * NATS subject filters narrowed from the selector's schema_name; the other clauses are filtered
 * locally with `matches`. Without schema_name: `crumbs.<owner|*>.<type|*>.>`.
 */
export function subjectsForSelector(selector: unknown, opts: SubjectOptions = {}): string[] {
  const compiled = selectorOf(selector);
  const owner = opts.owner ?? "*";
  if (owner !== "*" && !OWNER_PATTERN.test(owner)) throw new InvalidSelectorError(`owner ${JSON.stringify(owner)} is not valid`);
  const sn = compiled.selector.schema_name;
  const tails = sn === undefined ? [">"] : [...new Set(typeof sn === "string" ? [sn] : sn)];
  const out: string[] = [];
  for (const t of typeTokens(opts.types)) for (const tail of tails) out.push(`${SUBJECT_PREFIX}.${owner}.${t}.${tail}`);
  return out;
}

/** True when every subject matched by `specific` is also matched by the filter `general`. */
export function subjectCovers(general: string, specific: string): boolean {
  const g = general.split(".");
  const s = specific.split(".");
  for (let i = 0; i < g.length; i++) {
    const tok = g[i];
    if (tok === ">") return s.length > i;
    const st = s[i];
    if (st === undefined) return false;
    if (tok === "*") {
      if (st === ">") return false;
      continue;
    }
    if (tok !== st) return false;
  }
  return g.length === s.length;
}

/**
 * Subjects for several selectors (one consumer), without duplicates or subjects that another one
 * already covers: JetStream refuses overlapping filter subjects on one consumer.
 */
export function subjectsForSelectors(selectors: readonly unknown[], opts: SubjectOptions = {}): string[] {
  const all = [...new Set(selectors.flatMap((s) => subjectsForSelector(s, opts)))];
  return all.filter((s, i) => !all.some((o, j) => j !== i && subjectCovers(o, s) && (!subjectCovers(s, o) || j < i)));
}
