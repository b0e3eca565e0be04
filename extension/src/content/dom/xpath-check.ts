import { MAX_XPATH_LENGTH } from "@crumbs/schemas/browser-action";

// Pure checks of an XPath target before the page evaluates it: no DOM here, so it is unit-tested in node.
//
// document.evaluate runs to completion in one synchronous call; nothing stops it half-way, so the budget is
// kept by the shape of the expression. What makes XPath slow is a step that visits the whole document (or the
// rest of it, or all its siblings) once per context element: elements x elements. Measured in Chromium on a page
// of 22,000 elements: `//div[count(//a) > 0]` took 2.5 s and `//li/following::li` 13.4 s, and in a list of 20,000
// items `//li[preceding-sibling::li]` 77 s, where `//div[@class='row']/a[1]` took 16 ms, `//div//a` 5 ms,
// `//*[count(.//*) > 5]` 13 ms and `//li[ancestor::ul]` 4 ms. So:
//  - inside a predicate, a path from the root (`//x`, `/html/...`) and the following/preceding axes (siblings
//    too) are refused; relative paths (`.//a`, `a/b`, `../label`) and ancestors stay;
//  - at the top level, a following/preceding (or sibling) step is allowed when the step before it selects few
//    elements: xpath.ts evaluates that prefix first and refuses more than MAX_WIDE_CONTEXTS (`wideSteps`).

export { MAX_XPATH_LENGTH };

/** Location steps at the top level (`/html/body/div[2]/a` is 4). */
export const MAX_XPATH_STEPS = 24;
/** Predicates inside predicates. */
export const MAX_PREDICATE_DEPTH = 3;
/** At most this many context elements before a top-level following/preceding step: each one scans the rest of the page. */
export const MAX_WIDE_CONTEXTS = 20;

const REST_OF_DOCUMENT = /\b(following|preceding|following-sibling|preceding-sibling)\s*::/;
const WIDE_STEP = /^\/\s*(following|preceding|following-sibling|preceding-sibling)\s*::/;
/** What may stand just before a `/` that starts a path from the root: an opening bracket, a comma or an operator. */
const STARTS_EXPRESSION = /(^|[[(,=<>|+\-*]|\b(and|or|div|mod))\s*$/;

export type XPathCheck = { ok: true; wideSteps: number[] } | { ok: false; reason: string };

/**
 * Checks the shape; on success `wideSteps` are the offsets of the top-level `/following::` (and preceding,
 * sibling) steps, whose prefixes (`expr.slice(0, offset)`) the caller counts before evaluating the whole.
 */
export function checkXPath(expr: string): XPathCheck {
  if (!expr.trim()) return { ok: false, reason: "the XPath is empty" };
  if (expr.length > MAX_XPATH_LENGTH) return { ok: false, reason: `the XPath is longer than ${MAX_XPATH_LENGTH} characters` };
  let depth = 0;
  let parens = 0;
  let maxDepth = 0;
  let steps = 0;
  const wideSteps: number[] = [];
  let quote: string | undefined;
  // The current predicate's text so far (string literals blanked), to test what precedes a `/` inside it.
  let predicate = "";
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      if (depth > 0) predicate += " ";
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      if (depth > 0) predicate += " ";
      continue;
    }
    if (c === "[") {
      depth++;
      maxDepth = Math.max(maxDepth, depth);
      predicate += "[";
      continue;
    }
    if (c === "]") {
      if (depth === 0) return { ok: false, reason: "the XPath has a ] without its [" };
      depth--;
      predicate = depth > 0 ? predicate + "]" : "";
      continue;
    }
    if (depth === 0) {
      if (c === "(") parens++;
      if (c === ")") parens--;
      if (c === "/") {
        steps++;
        if (WIDE_STEP.test(expr.slice(i, i + 40))) {
          // Its prefix must be an expression of its own, to be counted first.
          if (parens > 0) return { ok: false, reason: "a following or preceding step inside (...) cannot be bounded: write it outside the parentheses" };
          wideSteps.push(i);
        }
      }
      continue;
    }
    if (c === "/" && STARTS_EXPRESSION.test(predicate)) {
      return { ok: false, reason: "a path from the root inside a predicate (//x or /html/...) searches the whole page once per element: start it with . (.//x)" };
    }
    predicate += c;
    if (REST_OF_DOCUMENT.test(predicate)) {
      return { ok: false, reason: "a following or preceding axis (siblings too) inside a predicate scans the rest of the page once per element: move it out of the [...] (//td[.='Total']/following-sibling::td[1])" };
    }
  }
  if (quote) return { ok: false, reason: "the XPath has an unclosed string" };
  if (depth !== 0) return { ok: false, reason: "the XPath has a [ without its ]" };
  if (maxDepth > MAX_PREDICATE_DEPTH) return { ok: false, reason: `predicates nest deeper than ${MAX_PREDICATE_DEPTH}` };
  if (steps > MAX_XPATH_STEPS) return { ok: false, reason: `the XPath has more than ${MAX_XPATH_STEPS} steps` };
  return { ok: true, wideSteps };
}
