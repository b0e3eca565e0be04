import { z } from "zod";
import { evaluationBudget, type WorkBudget } from "../budget.ts";
import { InvalidSelectorError, issuesFrom } from "../contract/errors.ts";
import { evaluateJsonPath, JsonPathSyntaxError, parseJsonPath, type CompiledPath } from "../json-path/json-path.ts";
import { deepEqual, jsonDepthExceeds } from "../json-values.ts";
import { compileSafeRegex, regexCost } from "./regex.ts";
import { selectorSchema, type ContextMatch, type Selector } from "./selector-schema.ts";

// Semantics when a path selects several values (a wildcard, `..`, a slice or a union) or none:
//   eq, in, contains, contains_any, contains_all, gt, gte, lt, lte, matches: true when ANY value passes;
//   ne, nin: the negation of eq / in, so true when NO value equals / is listed (also when absent);
//   exists: value true (the default) = at least one value (null counts); value false = none.
// A definite path selects zero or one value. Comparisons need both sides numbers or both strings
// (ISO times compare as strings); mixed types never match. `contains` tests a substring on a string
// and membership (deep equality) on an array. `matches` takes a pattern string or {pattern, flags}
// in RE2 syntax (regex.ts): linear-time matching, no backreferences or lookaround.
//
// Matching is bounded: the path walk, each value tested and each regex scan are charged to a work
// budget (the caller's, or a fresh evaluation budget per call), and BudgetExceededError stops a
// selector that would take too long on one breadcrumb.

export interface SelectorTarget {
  schema_name: string;
  tags: readonly string[];
  context: unknown;
}

export interface CompiledSelector {
  readonly selector: Selector;
  /** Throws BudgetExceededError when the work outgrows `budget` (default: one evaluation budget). */
  matches(b: SelectorTarget, budget?: WorkBudget): boolean;
}

type Test = (values: unknown[], budget: WorkBudget) => boolean;

const MAX_VALUE_DEPTH = 32;
const MAX_LIST = 1000;

const regexValueSchema = z.union([
  z.string(),
  z.strictObject({ pattern: z.string(), flags: z.string().optional() }),
]);

function scalarKey(v: unknown): string | undefined {
  if (typeof v === "string") return "s" + v;
  if (typeof v === "number") return "n" + v;
  if (typeof v === "boolean") return "b" + v;
  if (v === null) return "null";
  return undefined;
}

function memberOf(list: unknown[]): (v: unknown, budget: WorkBudget) => boolean {
  const keys = list.map(scalarKey);
  if (keys.every((k) => k !== undefined)) {
    const set = new Set(keys);
    return (v, budget) => {
      budget.spend();
      const k = scalarKey(v);
      return k !== undefined && set.has(k);
    };
  }
  return (v, budget) => list.some((item) => deepEqual(item, v, budget));
}

function containsOne(hay: unknown, needle: unknown, budget: WorkBudget): boolean {
  if (typeof hay === "string") {
    if (typeof needle !== "string") return false;
    budget.spend(1 + Math.ceil(hay.length / 64));
    return hay.includes(needle);
  }
  if (Array.isArray(hay)) return hay.some((x) => deepEqual(x, needle, budget));
  return false;
}

function compare(a: unknown, b: number | string): number | undefined {
  if (typeof b === "number" && typeof a === "number") return a - b;
  if (typeof b === "string" && typeof a === "string") return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function compileCondition(cond: ContextMatch, index: number): { path: CompiledPath; test: Test } {
  const where = `context_match[${index}]`;
  const bad = (message: string): never => {
    throw new InvalidSelectorError(`${where}: ${message}`, {
      issues: [{ path: ["context_match", index], code: "invalid_condition", message }],
    });
  };
  let path: CompiledPath;
  try {
    path = parseJsonPath(cond.path);
  } catch (e) {
    if (e instanceof JsonPathSyntaxError) return bad(e.message);
    throw e;
  }
  const { op, value } = cond;
  if (value !== undefined && jsonDepthExceeds(value, MAX_VALUE_DEPTH)) bad(`value nested deeper than ${MAX_VALUE_DEPTH}`);
  const needList = (): unknown[] => {
    if (!Array.isArray(value)) return bad(`op ${op} needs an array value`);
    if (value.length > MAX_LIST) return bad(`op ${op} takes at most ${MAX_LIST} values`);
    return value;
  };
  const needValue = () => {
    if (value === undefined) bad(`op ${op} needs a value`);
  };
  let test: Test;
  switch (op) {
    case "eq":
      needValue();
      test = (vs, budget) => vs.some((v) => deepEqual(v, value, budget));
      break;
    case "ne":
      needValue();
      test = (vs, budget) => !vs.some((v) => deepEqual(v, value, budget));
      break;
    case "in": {
      const has = memberOf(needList());
      test = (vs, budget) => vs.some((v) => has(v, budget));
      break;
    }
    case "nin": {
      const has = memberOf(needList());
      test = (vs, budget) => !vs.some((v) => has(v, budget));
      break;
    }
    case "contains":
      needValue();
      test = (vs, budget) => vs.some((v) => containsOne(v, value, budget));
      break;
    case "contains_any": {
      const list = needList();
      if (list.length === 0) bad("contains_any needs at least one value");
      test = (vs, budget) => vs.some((v) => list.some((n) => containsOne(v, n, budget)));
      break;
    }
    case "contains_all": {
      const list = needList();
      if (list.length === 0) bad("contains_all needs at least one value");
      test = (vs, budget) => vs.some((v) => list.every((n) => containsOne(v, n, budget)));
      break;
    }
    case "exists": {
      if (value !== undefined && typeof value !== "boolean") bad("exists takes no value or a boolean");
      const want = value !== false;
      test = (vs) => vs.some((v) => v !== undefined) === want;
      break;
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      if (!(typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))) {
        bad(`op ${op} needs a number or a string value`);
      }
      const operand = value as number | string;
      const ok =
        op === "gt" ? (d: number) => d > 0 : op === "gte" ? (d: number) => d >= 0 : op === "lt" ? (d: number) => d < 0 : (d: number) => d <= 0;
      test = (vs, budget) =>
        vs.some((v) => {
          budget.spend();
          const d = compare(v, operand);
          return d !== undefined && ok(d);
        });
      break;
    }
    case "matches": {
      const parsed = regexValueSchema.safeParse(value);
      if (!parsed.success) return bad("matches needs a pattern string or {pattern, flags}");
      const { pattern, flags = "" } = typeof parsed.data === "string" ? { pattern: parsed.data } : parsed.data;
      let re: ReturnType<typeof compileSafeRegex>;
      try {
        re = compileSafeRegex(pattern, flags);
      } catch (e) {
        return bad(`regex refused: ${(e as Error).message}`);
      }
      test = (vs, budget) =>
        vs.some((v) => {
          if (typeof v !== "string") return false;
          budget.spend(regexCost(pattern, v.length));
          return re.test(v);
        });
      break;
    }
    default:
      return bad(`unknown op ${String(op)}`);
  }
  return { path, test };
}

class Compiled implements CompiledSelector {
  private readonly names: ReadonlySet<string> | undefined;
  private readonly anyTags: readonly string[] | undefined;
  private readonly allTags: readonly string[];
  private readonly noneTags: readonly string[];
  private readonly conditions: ReadonlyArray<{ path: CompiledPath; test: Test }>;

  constructor(readonly selector: Selector) {
    const sn = selector.schema_name;
    this.names = sn === undefined ? undefined : new Set(typeof sn === "string" ? [sn] : sn);
    this.anyTags = selector.any_tags;
    this.allTags = selector.all_tags ?? [];
    this.noneTags = selector.none_tags ?? [];
    this.conditions = (selector.context_match ?? []).map(compileCondition);
  }

  matches(b: SelectorTarget, budget?: WorkBudget): boolean {
    if (this.names && !this.names.has(b.schema_name)) return false;
    const tags = b.tags;
    if (this.anyTags && !this.anyTags.some((t) => tags.includes(t))) return false;
    for (const t of this.allTags) if (!tags.includes(t)) return false;
    for (const t of this.noneTags) if (tags.includes(t)) return false;
    if (this.conditions.length === 0) return true;
    const work = evaluationBudget("selector", budget);
    for (const c of this.conditions) {
      if (!c.test(evaluateJsonPath(c.path, b.context, work), work)) return false;
    }
    return true;
  }
}

/** Validates a selector completely (shape, paths, ops, operand types, regexes) and compiles it. */
export function compileSelector(selector: unknown): CompiledSelector {
  const parsed = selectorSchema.safeParse(selector);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? `${first.path.join(".")}: ` : "";
    throw new InvalidSelectorError(`invalid selector: ${where}${first?.message ?? "bad shape"}`, { issues: issuesFrom(parsed.error.issues) });
  }
  return new Compiled(parsed.data);
}

/** For query strings: absent or empty means "match everything"; bad JSON is an invalid selector. */
export function parseSelectorParam(json: string | undefined): CompiledSelector {
  if (json === undefined || json.trim() === "") return compileSelector({});
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    const message = (e as Error).message;
    throw new InvalidSelectorError(`selector is not valid JSON: ${message}`, { issues: [{ path: [], code: "invalid_json", message }] });
  }
  return compileSelector(value);
}
