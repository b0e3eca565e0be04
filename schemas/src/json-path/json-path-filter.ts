import type { WorkBudget } from "../budget.ts";
import { evaluateExpression, parseExpression, truthy, type Expr } from "../lang/expression.ts";
import { LruCache } from "../lru.ts";

// JSONPath filters `[?(...)]`: the body is the safe expression language of expression.ts with
// `@` the current item and `$` the root. Nothing here ever compiles or runs JavaScript.
//
// jsonpath-plus gets the filter as `?(crumbsf_<hex of the body>)` rather than the body itself:
// its path tokenizer is a chain of regexes that a `)]` or `'` inside a string literal would cut
// in the wrong place, while hex digits pass through untouched. Its `eval` option is our
// `jsonPathPlusEval`, which decodes the body and evaluates it with the tree walker.

const CODE_PREFIX = "crumbsf_";
const CODE = /^crumbsf_((?:[0-9a-f]{4})+)$/;
const cache = new LruCache<string, Expr>(1000);
const codeCache = new LruCache<string, Expr>(1000);

/** Parses a filter body; throws HintCompileError saying what is not allowed. */
export function parseFilter(body: string): Expr {
  const hit = cache.get(body);
  if (hit) return hit;
  const expr = parseExpression(body, { filter: true });
  cache.set(body, expr);
  return expr;
}

/** Whether `item` passes the filter; `root` is what `$` names. */
export function passesFilter(expr: Expr, item: unknown, root: unknown, budget?: WorkBudget): boolean {
  // A null-prototype scope: only the two roots can be looked up, never Object.prototype.
  const scope = Object.create(null) as Record<string, unknown>;
  scope["@"] = item;
  scope["$"] = root;
  try {
    return truthy(evaluateExpression(expr, scope, budget));
  } catch (e) {
    // `@.a == @.b` on two equal subtrees thousands deep overflows deepEqual: the item does not
    // pass, as a selector must never throw while matching.
    if (e instanceof RangeError) return false;
    throw e;
  }
}

export function encodeFilter(body: string): string {
  let hex = "";
  for (let i = 0; i < body.length; i++) hex += body.charCodeAt(i).toString(16).padStart(4, "0");
  return CODE_PREFIX + hex;
}

function decodeFilter(code: string): string {
  const m = CODE.exec(code);
  if (!m) throw new Error(`refusing to evaluate a filter this library did not write: ${code.slice(0, 60)}`);
  let body = "";
  for (let i = 0; i < m[1]!.length; i += 4) body += String.fromCharCode(parseInt(m[1]!.slice(i, i + 4), 16));
  return body;
}

/** jsonpath-plus `eval` option: `_$_v` is the item under test and `_$_root` the document. */
export function jsonPathPlusEval(code: string, context: Record<string, unknown>): boolean {
  let expr = codeCache.get(code);
  if (!expr) {
    expr = parseFilter(decodeFilter(code));
    codeCache.set(code, expr);
  }
  return passesFilter(expr, context["_$_v"], context["_$_root"]);
}
