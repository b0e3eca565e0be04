import { compileSelector, type CompiledSelector } from "./selector-compile.ts";

/**
 * Whether some breadcrumb of schema `schemaName` can match the selector: its schema_name clause
 * (absent: every schema) names it. Tags and context conditions are not judged, since any breadcrumb
 * may carry them; a selector that names no schema can therefore match anything, page context included.
 * Accepts a selector or a compiled one; a selector that does not compile throws InvalidSelectorError.
 */
export function selectorCanMatchSchema(selector: unknown, schemaName: string): boolean {
  const compiled = isCompiled(selector) ? selector : compileSelector(selector);
  const sn = compiled.selector.schema_name;
  return sn === undefined || (typeof sn === "string" ? sn === schemaName : sn.includes(schemaName));
}

function isCompiled(s: unknown): s is CompiledSelector {
  return typeof s === "object" && s !== null && typeof (s as CompiledSelector).matches === "function" && "selector" in s;
}
