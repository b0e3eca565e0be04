import { parseJsonPath, type ContextMatch, type Selector } from "@crumbs/schemas";

// Which `context_match` conditions Postgres answers, and how (docs/scaling.md, "Selectors").
//
// A condition is pushed down when the GIN index on `context` (jsonb_path_ops) can serve it: an
// equality (`eq`, or `in` over scalars) on a definite path of names and non-negative indexes. It
// becomes `context @? 'strict $."a"."b" ? (@ == "x")'`, which the index looks up by path and value
// instead of the API testing the owner's rows one by one. Everything else (`ne`, `nin`, `contains`,
// `exists`, comparisons, `matches`, wildcards, filters) stays with the compiled selector in JS,
// bounded by the request's work budget and the rows-per-request bound of the list, because the
// index cannot find those rows: evaluated in SQL they would make Postgres walk every row of the
// owner with no budget to stop it.
//
// The translation must answer exactly what the compiled selector answers (selector-compile.ts in
// @crumbs/schemas), so that a pushed condition needs no second test in JS. Where the two differ:
//   - lax jsonpath unwraps arrays (`$.a ? (@ == 1)` holds for `{"a": [1]}`), while `eq` compares the
//     whole value: hence `strict`, where an array compared to a scalar is false;
//   - a missing key is an error in strict mode, which `@?` turns into NULL: false in a WHERE;
//   - the JS walker reads own properties, so a name step on an array finds `length` and digit
//     names (`$.list.0`), which jsonpath does not: such names are never pushed;
//   - only scalars compare in jsonpath: an object or array operand stays in JS;
//   - a string jsonpath cannot hold (NUL, a lone surrogate) stays in JS (Postgres would refuse the
//     whole statement).
// Numbers compare equal alike: the stored JSON came from JS numbers, and Postgres's numeric
// equality of two shortest round-trip decimals is the equality of the doubles.

/** Most `in` values pushed as one jsonpath filter (an `||` chain); longer lists stay in JS. */
export const MAX_PUSHED_IN = 100;

type Scalar = string | number | boolean | null;

/** A lone surrogate, which Postgres refuses in a jsonpath string (as it does NUL). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function scalarLiteral(v: unknown): string | undefined {
  if (v === null || typeof v === "boolean") return String(v);
  if (typeof v === "number") return Number.isFinite(v) ? JSON.stringify(v) : undefined;
  if (typeof v === "string")
    return v.includes("\u0000") || LONE_SURROGATE.test(v) ? undefined : JSON.stringify(v);
  return undefined;
}

/** `strict $."a"[0]."b"` for a definite path jsonpath reads as the JS walker does, else undefined. */
export function strictPathOf(source: string): string | undefined {
  let path: ReturnType<typeof parseJsonPath>;
  try {
    path = parseJsonPath(source);
  } catch {
    return undefined;
  }
  if (!path.definite) return undefined;
  let out = "strict $";
  for (const step of path.steps) {
    if (step.t === "name") {
      if (step.name === "length" || /^\d+$/.test(step.name)) return undefined;
      const quoted = scalarLiteral(step.name);
      if (quoted === undefined) return undefined;
      out += "." + quoted;
    } else if (step.t === "index") {
      if (step.index < 0) return undefined;
      out += `[${step.index}]`;
    } else {
      return undefined;
    }
  }
  return out;
}

/** The jsonpath (for `context @? ...`) that answers `cond` exactly, or undefined when JS must. */
export function pushedJsonPath(cond: ContextMatch): string | undefined {
  let operands: Scalar[];
  if (cond.op === "eq") operands = [cond.value as Scalar];
  else if (
    cond.op === "in" &&
    Array.isArray(cond.value) &&
    cond.value.length > 0 &&
    cond.value.length <= MAX_PUSHED_IN
  ) {
    operands = cond.value as Scalar[];
  } else return undefined;
  const literals = operands.map(scalarLiteral);
  if (literals.some((l) => l === undefined)) return undefined;
  const path = strictPathOf(cond.path);
  if (path === undefined) return undefined;
  return `${path} ? (${[...new Set(literals)].map((l) => `@ == ${l}`).join(" || ")})`;
}

/** The selector's context conditions split into what Postgres answers and what JS still tests. */
export function splitContextMatch(spec: Selector): { pushed: string[]; rest: ContextMatch[] } {
  const pushed: string[] = [];
  const rest: ContextMatch[] = [];
  for (const cond of spec.context_match ?? []) {
    const path = pushedJsonPath(cond);
    if (path === undefined) rest.push(cond);
    else pushed.push(path);
  }
  return { pushed, rest };
}
