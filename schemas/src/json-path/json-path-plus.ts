import { JSONPath } from "jsonpath-plus";
import { encodeFilter, jsonPathPlusEval } from "./json-path-filter.ts";
import { evaluationBudget } from "../budget.ts";
import { evaluateOwn } from "./json-path-own.ts";
import type { CompiledPath, Key, Step } from "./ast.ts";

// The reference evaluation the tests compare the own walker with (and the benchmark measures):
// production evaluates every path with the bounded own walker, since jsonpath-plus has no hook
// to stop a walk that outgrows its budget. Evaluation through jsonpath-plus, with its script engine replaced by our expression evaluator.
// Paths are rewritten from our parsed steps, not passed as the user wrote them: jsonpath-plus
// tokenizes with regexes, so names holding its syntax (`;`, `^`, `#0`, `@x()`, brackets, quotes)
// would be split or reinterpreted. Such paths return undefined here and use the own evaluator.

// Characters that survive jsonpath-plus's tokenizer inside ['...'] (`.` and `~` it escapes itself).
const PLAIN_NAME = /^[\p{L}\p{N}\p{M}_\-:/ +=!&|<>{}.~*$?]+$/u;
// Whole names it would read as syntax: wildcard, root, descent, property-name operator, a slice.
const SYNTAX_NAME = /^(?:\*|\$|\.+|~|-?\d*:-?\d*(?::-?\d*)?)$/;

const plainName = (name: string) => PLAIN_NAME.test(name) && !SYNTAX_NAME.test(name);

function keyPart(k: Key): string | undefined {
  if (k.t === "name") return plainName(k.name) ? `['${k.name}']` : undefined;
  // An index is a one-item slice: jsonpath-plus reads [0] as the key "0" of anything (a string's
  // first character, an object's "0") and [-1] as the key "-1"; a slice only indexes arrays.
  return k.index === -1 ? "[-1:]" : `[${k.index}:${k.index + 1}]`;
}

function stepPart(step: Step): string | undefined {
  switch (step.t) {
    case "name":
    case "index":
      return keyPart(step);
    case "wild":
      return "[*]";
    case "slice":
      return `[${step.start ?? ""}:${step.end ?? ""}:${step.step}]`;
    case "filter":
      return `[?(${encodeFilter(step.body)})]`;
    case "union":
      if (step.items.every((k) => k.t === "name" && plainName(k.name))) {
        return `[${step.items.map((k) => `'${(k as { name: string }).name}'`).join(",")}]`;
      }
      // A union with indexes: jsonpath-plus would read them as keys (see keyPart); no spelling.
      return undefined;
    case "desc": {
      const inner = stepPart(step.inner);
      return inner === undefined ? undefined : ".." + inner;
    }
  }
}

/** The jsonpath-plus spelling of a parsed path, or undefined when there is none that is safe. */
export function toPlusPath(steps: readonly Step[]): string | undefined {
  let out = "$";
  for (const step of steps) {
    const part = stepPart(step);
    if (part === undefined) return undefined;
    out += part;
  }
  return out;
}

// jsonpath-plus keeps every path string and filter it has seen in module-level Maps that never
// shrink; paths come from users, so the caches are dropped now and then.
const MAX_CACHED_PATHS = 10_000;
const seen = new Set<string>();

function remember(plus: string): void {
  if (seen.has(plus)) return;
  if (seen.size >= MAX_CACHED_PATHS) {
    JSONPath.clearCache();
    seen.clear();
  }
  seen.add(plus);
}

// A name step applied to a string reads the string's own `length` and characters in jsonpath-plus
// (Object.hasOwn("abc", "length") is true); JSON paths never see inside strings.
function mayEnterString(step: Step): boolean {
  if (step.t === "name") return step.name === "length" || /^\d+$/.test(step.name);
  if (step.t === "union") return step.items.some(mayEnterString);
  if (step.t === "desc") return mayEnterString(step.inner);
  return false;
}

interface Found {
  value: unknown;
  parent: unknown;
}

export function evaluatePlus(path: CompiledPath, root: unknown): unknown[] {
  const plus = toPlusPath(path.steps);
  // jsonpath-plus answers undefined for a falsy document and has nothing to walk in a scalar one.
  if (plus === undefined || root === null || typeof root !== "object") return evaluateOwn(path.steps, root, evaluationBudget("JSONPath"));
  remember(plus);
  const checkParents = path.steps.some(mayEnterString);
  try {
    const found = JSONPath({
      path: plus,
      json: root,
      eval: jsonPathPlusEval as (code: string, context: unknown) => unknown,
      wrap: true,
      resultType: checkParents ? "all" : "value",
    }) as unknown[];
    if (!checkParents) return found;
    const values: unknown[] = [];
    for (const f of found as Found[]) if (typeof f.parent !== "string") values.push(f.value);
    return values;
  } catch (e) {
    // Its recursion overflows on a document nested thousands deep; the own walker is iterative.
    if (e instanceof RangeError) return evaluateOwn(path.steps, root, evaluationBudget("JSONPath"));
    throw e;
  }
}
