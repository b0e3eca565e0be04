// JSONPath: a strict parser of our own validates every path when it is written, and the bounded
// own walker evaluates it (json-path-own.ts; jsonpath-plus is the tests' reference). Why our own parser: jsonpath-plus accepts almost any string
// (a typo is silently a different path) and runs script filters; the contract needs bad paths
// rejected when written and no script evaluation ever.
//
// Grammar:  $ ( .name | .* | [selectors] | ..name | ..* | ..[selectors] )*
//   selectors: 'quoted' | "quoted" | integer (negative counts from the end) | * | start:end[:step]
//              separated by commas (a union), or one filter ?(expression).
// Filter bodies use the expression language of expression.ts with @ the current item and $ the
// root: `$.links[?(@.href == '/docs' && !@.hidden)]`. Script expressions `[(...)]` are refused.
// Names after a dot: letters, digits, `_` and `-`; anything else goes in quotes: $['og:title'].
// Only own properties are read, so prototypes are unreachable.

import { evaluationBudget, type WorkBudget } from "../budget.ts";
import type { CompiledPath, Filter, Key, Slice, Step } from "./ast.ts";
import { HintCompileError } from "../lang/hint-compile-error.ts";
import { parseFilter } from "./json-path-filter.ts";
import { evaluateOwn } from "./json-path-own.ts";

export class JsonPathSyntaxError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`invalid JSONPath ${JSON.stringify(path)}: ${reason}`);
  }
}

export type { CompiledPath, Filter, Key, Slice, Step } from "./ast.ts";

export const MAX_PATH_LENGTH = 512;
const MAX_STEPS = 64;
const NAME_CHAR = /[\p{L}\p{N}_-]/u;

export function parseJsonPath(source: string): CompiledPath {
  if (typeof source !== "string") throw new JsonPathSyntaxError(String(source), "a path is a string");
  if (source.length > MAX_PATH_LENGTH) throw new JsonPathSyntaxError(source.slice(0, 40) + "…", "longer than 512 characters");
  const fail = (reason: string, at: number): never => {
    throw new JsonPathSyntaxError(source, `${reason} at position ${at}`);
  };
  let i = 0;
  if (source[0] !== "$") fail("must start with $", 0);
  i = 1;
  const steps: Step[] = [];

  const readName = (): string => {
    const start = i;
    while (i < source.length && NAME_CHAR.test(source[i]!)) i++;
    if (i === start) fail("expected a name", i);
    return source.slice(start, i);
  };

  const readInt = (): number | undefined => {
    const m = /^-?\d+/.exec(source.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isSafeInteger(n)) fail("integer out of range", i);
    return n;
  };

  const skipSpaces = () => {
    while (source[i] === " ") i++;
  };

  const readQuoted = (): string => {
    const quote = source[i]!;
    i++;
    let out = "";
    while (i < source.length && source[i] !== quote) {
      if (source[i] === "\\") {
        const next = source[i + 1];
        if (next === undefined) fail("unterminated escape", i);
        out += next === "n" ? "\n" : next === "t" ? "\t" : next;
        i += 2;
      } else {
        out += source[i];
        i++;
      }
    }
    if (source[i] !== quote) fail("unterminated string", i);
    i++;
    return out;
  };

  const readFilter = (): Filter => {
    const open = i;
    i++; // ?
    skipSpaces();
    if (source[i] !== "(") fail("expected ( after ? (a filter is [?(expression)])", i);
    i++;
    const start = i;
    let depth = 1;
    let quote: string | undefined;
    for (; i < source.length && depth > 0; i++) {
      const c = source[i];
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "(") depth++;
      else if (c === ")") depth--;
    }
    if (depth > 0) fail("unterminated filter", open);
    const body = source.slice(start, i - 1);
    skipSpaces();
    if (source[i] !== "]") fail("expected ] after a filter", i);
    i++;
    try {
      return { t: "filter", body, expr: parseFilter(body) };
    } catch (e) {
      if (e instanceof HintCompileError) return fail(`filter ${JSON.stringify(body)}: ${e.message}`, open);
      throw e;
    }
  };

  const readBracket = (): Step => {
    i++; // [
    skipSpaces();
    if (source[i] === "?") return readFilter();
    if (source[i] === "(") fail("script expressions [(...)] are not allowed", i);
    if (source[i] === "*") {
      i++;
      skipSpaces();
      if (source[i] !== "]") fail("expected ]", i);
      i++;
      return { t: "wild" };
    }
    const items: Key[] = [];
    let slice: Slice | undefined;
    for (;;) {
      skipSpaces();
      const c = source[i];
      if (c === "'" || c === '"') {
        items.push({ t: "name", name: readQuoted() });
      } else {
        const start = readInt();
        skipSpaces();
        if (source[i] === ":") {
          i++;
          skipSpaces();
          const end = readInt();
          skipSpaces();
          let step = 1;
          if (source[i] === ":") {
            i++;
            skipSpaces();
            const s = readInt();
            if (s !== undefined) step = s;
          }
          if (step <= 0) fail("a slice step must be positive", i);
          slice = { t: "slice", start, end, step };
        } else if (start !== undefined) {
          items.push({ t: "index", index: start });
        } else if (c === "?" || c === "(" || c === "@") {
          fail("a filter is [?(expression)] on its own, not part of a union", i);
        } else {
          fail("expected a quoted name, an index, * or a slice", i);
        }
      }
      skipSpaces();
      if (slice && (items.length > 0 || source[i] === ",")) fail("a slice cannot be part of a union", i);
      if (source[i] === ",") {
        i++;
        continue;
      }
      if (source[i] !== "]") fail("expected ]", i);
      i++;
      break;
    }
    if (slice) return slice;
    return items.length === 1 ? items[0]! : { t: "union", items };
  };

  while (i < source.length) {
    if (steps.length >= MAX_STEPS) fail("too many steps", i);
    const c = source[i];
    if (c === "." && source[i + 1] === ".") {
      i += 2;
      let inner: Step;
      if (source[i] === "*") {
        i++;
        inner = { t: "wild" };
      } else if (source[i] === "[") {
        inner = readBracket();
      } else {
        inner = { t: "name", name: readName() };
      }
      steps.push({ t: "desc", inner });
    } else if (c === ".") {
      i++;
      if (source[i] === "*") {
        i++;
        steps.push({ t: "wild" });
      } else {
        steps.push({ t: "name", name: readName() });
      }
    } else if (c === "[") {
      steps.push(readBracket());
    } else {
      fail(`unexpected ${JSON.stringify(c)}`, i);
    }
  }
  const definite = steps.every((s) => s.t === "name" || s.t === "index");
  return { source, steps, definite };
}

/**
 * Every value the path selects, in document order. Bounded: nodes visited and values yielded are
 * charged to `budget` (a fresh evaluation budget when none is given); past it BudgetExceededError.
 */
export function evaluateJsonPath(path: CompiledPath, root: unknown, budget?: WorkBudget): unknown[] {
  // The own walker for every path: it is faster than jsonpath-plus on each path measured
  // (README, scripts/bench-json-path.ts) and, unlike it, can stop a walk that outgrows its budget.
  return evaluateOwn(path.steps, root, evaluationBudget("JSONPath", budget));
}

/** The contract's `extract`: a definite path gives its value or null, any other path an array. */
export function extractJsonPath(path: CompiledPath, root: unknown, budget?: WorkBudget): unknown {
  const values = evaluateJsonPath(path, root, budget);
  if (!path.definite) return values;
  return values.length === 0 || values[0] === undefined ? null : values[0];
}
