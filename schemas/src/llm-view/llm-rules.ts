import type { WorkBudget } from "../budget.ts";
import { compileExpression, evaluateExpression } from "../lang/expression.ts";
import { asCompileError, HintCompileError } from "../lang/hint-compile-error.ts";
import { extractJsonPath, JsonPathSyntaxError, parseJsonPath } from "../json-path/json-path.ts";
import { setOwn } from "../json-values.ts";
import type { HintRule } from "./llm-hints-schema.ts";
import { compileTemplate } from "../lang/template-engine.ts";

/** What templates and literal expressions see. `context` is without its llm_hints field. */
export interface TemplateData extends Record<string, unknown> {
  context: Record<string, unknown>;
  title: string;
  tags: string[];
  schema_name: string;
  id: string | undefined;
  version: number | undefined;
}

/** Runs a rule; its work is charged to `budget` (BudgetExceededError past it). */
export type RuleFn = (data: TemplateData, budget: WorkBudget) => unknown;

const MAX_LITERAL_DEPTH = 32;
const EXACT_EXPRESSION = /^\{\{([\s\S]*)\}\}$/;

function compileString(s: string): RuleFn | undefined {
  const m = EXACT_EXPRESSION.exec(s);
  if (m && !m[1]!.includes("{{") && !m[1]!.includes("}}")) {
    try {
      const expr = compileExpression(m[1]!.trim());
      return (d, b) => evaluateExpression(expr, d, b) ?? null;
    } catch (exprError) {
      // Not an expression: maybe a helper call like {{join context.tags}}, rendered as a template.
      try {
        const tpl = compileTemplate(s);
        return (d, b) => tpl(d, b);
      } catch {
        throw asCompileError(exprError, `literal ${JSON.stringify(s.slice(0, 80))}`);
      }
    }
  }
  if (s.includes("{{")) {
    const tpl = compileTemplate(s);
    return (d, b) => tpl(d, b);
  }
  return undefined;
}

function compileLiteral(v: unknown, depth: number): RuleFn {
  if (depth > MAX_LITERAL_DEPTH) throw new HintCompileError(`literal nested deeper than ${MAX_LITERAL_DEPTH}`);
  if (typeof v === "string") return compileString(v) ?? (() => v);
  if (Array.isArray(v)) {
    const items = v.map((x) => compileLiteral(x, depth + 1));
    return (d, b) => items.map((f) => f(d, b));
  }
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).map(([k, x]) => [k, compileLiteral(x, depth + 1)] as const);
    return (d, b) => {
      const out: Record<string, unknown> = {};
      for (const [k, f] of entries) setOwn(out, k, f(d, b));
      return out;
    };
  }
  if (v === undefined) return () => null;
  return () => v;
}

/** Compiles one rule; throws HintCompileError naming what is wrong. */
export function compileRule(rule: HintRule): RuleFn {
  try {
    switch (rule.type) {
      case "template": {
        const tpl = compileTemplate(rule.template);
        return (d, b) => tpl(d, b);
      }
      case "extract": {
        const path = parseJsonPath(rule.value);
        return (d, b) => extractJsonPath(path, d.context, b);
      }
      case "literal":
        return compileLiteral(rule.literal, 0);
    }
  } catch (e) {
    if (e instanceof JsonPathSyntaxError) throw new HintCompileError(e.message);
    throw asCompileError(e, rule.type);
  }
}
