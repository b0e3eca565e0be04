import { ActionError } from "../../shared/action-error.ts";
import { checkXPath, MAX_WIDE_CONTEXTS } from "./xpath-check.ts";
import { isElement } from "./deep-dom.ts";

// An XPath target (`selector: {xpath: "/html/body/form/button"}`), as older tools and recorded scripts name
// elements. Checked for shape first (xpath-check.ts: the evaluation budget), then evaluated by the page's own
// engine in this document; it does not enter shadow roots or iframes (XPath cannot), so a ref or a role
// selector reaches more. A text or attribute node stands for its element.

/** At most this many matches are taken from one evaluation: an ambiguous XPath is an error listing a few anyway. */
export const MAX_XPATH_MATCHES = 200;

function evaluate(doc: Document, expr: string, type: number): XPathResult {
  try {
    return doc.evaluate(expr, doc, null, type, null);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^.*?: /, "") : String(e);
    throw new ActionError("invalid_params", `"${expr}" is not an XPath that selects nodes (${why})`);
  }
}

export function evaluateXPath(doc: Document, expr: string): Element[] {
  const check = checkXPath(expr);
  if (!check.ok) throw new ActionError("invalid_params", `XPath refused: ${check.reason}`);
  // Each context of a following/preceding step scans the rest of the page: count them first (the prefix passed
  // the same checks, so counting it is bounded).
  for (const at of check.wideSteps) {
    const prefix = expr.slice(0, at);
    const contexts = evaluate(doc, prefix, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE).snapshotLength;
    if (contexts > MAX_WIDE_CONTEXTS) {
      throw new ActionError(
        "invalid_params",
        `XPath refused: "${prefix}" selects ${contexts} elements, and each would scan the rest of the page for the step after it; narrow it to at most ${MAX_WIDE_CONTEXTS} (add a predicate)`,
      );
    }
  }
  const result = evaluate(doc, expr, XPathResult.ORDERED_NODE_ITERATOR_TYPE);
  const out: Element[] = [];
  const seen = new Set<Element>();
  for (let n = result.iterateNext(); n && out.length < MAX_XPATH_MATCHES; n = result.iterateNext()) {
    const el = isElement(n) ? n : n.nodeType === 2 ? (n as Attr).ownerElement : n.parentElement;
    if (el && !seen.has(el)) {
      seen.add(el);
      out.push(el);
    }
  }
  return out;
}
