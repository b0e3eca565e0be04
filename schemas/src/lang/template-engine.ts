import Handlebars from "handlebars";
import { evaluationBudget, type WorkBudget } from "../budget.ts";
import { asCompileError, HintCompileError } from "./hint-compile-error.ts";
import { FORBIDDEN_SEGMENTS } from "./forbidden-segments.ts";
import { LruCache } from "../lru.ts";
import { chargeIteration, chargeText, MAX_LOOP_NESTING, MAX_TEMPLATE_OUTPUT, renderWithin } from "./template-budget.ts";
import { TEMPLATE_HELPERS } from "./template-helpers.ts";

// Templates are untrusted. Defences, in order:
//   1. an isolated Handlebars instance with only our helpers; `knownHelpersOnly` makes any other
//      helper a compile error, and `log` is switched off;
//   2. the parsed AST is checked before compiling: no partials or decorators, and no path segment
//      or string literal naming prototype machinery (constructor, __proto__, prototype, ...);
//   3. at run time prototype properties and methods stay denied (Handlebars' own defaults);
//   4. work is bounded (template-budget.ts): loops nest at most MAX_LOOP_NESTING deep (refused
//      when written), and a render stops with BudgetExceededError past its iterations, its output
//      size or its work budget (each iteration and each helper's text are charged).
// `.length` at the end of a path is rewritten to a helper call, so a plain object counts its keys
// without opening prototypes.

export const MAX_TEMPLATE_LENGTH = 20_000;
const MAX_AST_DEPTH = 200;

const env = Handlebars.create();
for (const [name, fn] of Object.entries(TEMPLATE_HELPERS)) env.registerHelper(name, fn as Handlebars.HelperDelegate);
env.unregisterHelper("log");

// `each` (also what a section over an array calls) counts its iterations and the text of each
// one. Handlebars' own implementation does the iterating, with a body that charges first.
const builtinEach = env.helpers["each"] as Handlebars.HelperDelegate;
env.registerHelper("each", function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const body = options.fn;
  const fn = ((ctx: unknown, opts?: Handlebars.RuntimeOptions) => {
    chargeIteration();
    const out = body(ctx, opts);
    chargeText(out.length);
    return out;
  }) as Handlebars.TemplateDelegate;
  return builtinEach.call(this, context, { ...options, fn });
});

const knownHelpers: Record<string, boolean> = { log: false };
for (const name of Object.keys(TEMPLATE_HELPERS)) knownHelpers[name] = true;

const COMPILE_OPTIONS = {
  noEscape: true,
  strict: false,
  knownHelpers,
  knownHelpersOnly: true,
} as CompileOptions;

const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowCallsToHelperMissing: false,
};

type CompileOptions = Parameters<typeof Handlebars.compile>[1];
type Node = Record<string, unknown> & { type?: string; loc?: unknown };
/** Renders; throws BudgetExceededError when the render outgrows `budget` or the template limits. */
export type TemplateFn = (data: Record<string, unknown>, budget?: WorkBudget) => string;

const cache = new LruCache<string, TemplateFn>(1000);

export function templateCacheStats(): { size: number; hits: number; misses: number } {
  return { size: cache.size, hits: cache.hits, misses: cache.misses };
}

export function clearTemplateCache(): void {
  cache.clear();
}

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && typeof (v as Node).type === "string";
}

function checkPath(node: Node): void {
  const parts = node.parts as string[];
  for (const p of parts) {
    if (FORBIDDEN_SEGMENTS.has(p)) throw new HintCompileError(`path segment "${p}" is not allowed`);
  }
}

/** `a.b.length` -> `(__len a.b)`; returns undefined when the expression is not such a path. */
function lengthRewrite(expr: Node): Node | undefined {
  if (expr.type !== "PathExpression") return undefined;
  const parts = expr.parts as string[];
  if (parts.length === 0 || parts[parts.length - 1] !== "length") return undefined;
  const innerParts = parts.slice(0, -1);
  const inner: Node = {
    ...expr,
    parts: innerParts,
    original: innerParts.length === 0 ? "this" : (expr.data ? "@" : "") + innerParts.join("."),
  };
  const helper: Node = { type: "PathExpression", data: false, depth: 0, parts: ["__len"], original: "__len", loc: expr.loc };
  return { type: "SubExpression", path: helper, params: [inner], hash: undefined, loc: expr.loc };
}

function visitExpr(expr: unknown, depth: number): Node {
  if (!isNode(expr)) throw new HintCompileError("unexpected template structure");
  if (depth > MAX_AST_DEPTH) throw new HintCompileError("template is nested too deeply");
  switch (expr.type) {
    case "PathExpression": {
      checkPath(expr);
      return lengthRewrite(expr) ?? expr;
    }
    case "StringLiteral":
      if (FORBIDDEN_SEGMENTS.has(expr.value as string)) throw new HintCompileError(`string "${String(expr.value)}" is not allowed`);
      return expr;
    case "SubExpression":
      visitCall(expr, depth);
      return expr;
    case "NumberLiteral":
    case "BooleanLiteral":
    case "UndefinedLiteral":
    case "NullLiteral":
      return expr;
    default:
      throw new HintCompileError(`${expr.type} is not allowed in a template`);
  }
}

function visitCall(node: Node, depth: number): void {
  const path = node.path as Node;
  if (path.type === "PathExpression") checkPath(path);
  node.params = (node.params as unknown[]).map((p) => visitExpr(p, depth + 1));
  const hash = node.hash as Node | undefined;
  if (hash) {
    for (const pair of hash.pairs as Node[]) pair.value = visitExpr(pair.value, depth + 1);
  }
}

/** A block that may run its body once per item: `#each`, or a section over a path (`{{#items}}`). */
function isLoop(block: Node): boolean {
  const path = block.path as Node;
  if (path.type !== "PathExpression") return false;
  const name = (path.parts as string[]).join(".");
  return !(name === "if" || name === "unless" || name === "with" || name in TEMPLATE_HELPERS);
}

function visitProgram(program: unknown, depth: number, loopDepth = 0): void {
  if (program === undefined || program === null) return;
  if (!isNode(program) || program.type !== "Program") throw new HintCompileError("unexpected template structure");
  if (depth > MAX_AST_DEPTH) throw new HintCompileError("template is nested too deeply");
  for (const stmt of program.body as Node[]) {
    switch (stmt.type) {
      case "ContentStatement":
      case "CommentStatement":
        break;
      case "MustacheStatement": {
        const path = stmt.path as Node;
        const hash = stmt.hash as Node | undefined;
        const simple = (stmt.params as unknown[]).length === 0 && (!hash || (hash.pairs as unknown[]).length === 0);
        if (path.type === "PathExpression") {
          checkPath(path);
          const rewritten = simple ? lengthRewrite(path) : undefined;
          if (rewritten) {
            stmt.path = rewritten.path;
            stmt.params = rewritten.params;
            break;
          }
        } else {
          visitExpr(path, depth + 1);
        }
        visitCall(stmt, depth);
        break;
      }
      case "BlockStatement": {
        visitCall(stmt, depth);
        const loops = loopDepth + (isLoop(stmt) ? 1 : 0);
        if (loops > MAX_LOOP_NESTING) {
          throw new HintCompileError(`#each (or a section over a list) nested more than ${MAX_LOOP_NESTING} deep`);
        }
        visitProgram(stmt.program, depth + 1, loops);
        visitProgram(stmt.inverse, depth + 1, loopDepth);
        break;
      }
      default:
        throw new HintCompileError(`${String(stmt.type)} (partials, decorators) is not allowed in a template`);
    }
  }
}

/** Parses, checks and compiles a template (cached by its text); throws HintCompileError. */
export function compileTemplate(text: string): TemplateFn {
  const hit = cache.get(text);
  if (hit) return hit;
  if (typeof text !== "string") throw new HintCompileError("a template is a string");
  if (text.length > MAX_TEMPLATE_LENGTH) throw new HintCompileError(`template longer than ${MAX_TEMPLATE_LENGTH} characters`);
  let compiled: HandlebarsTemplateDelegate;
  try {
    const ast = env.parse(text);
    visitProgram(ast, 0);
    compiled = env.compile(ast, COMPILE_OPTIONS);
    // Handlebars compiles lazily on the first call; force it so errors surface now.
    compiled({}, RUNTIME_OPTIONS);
  } catch (e) {
    throw asCompileError(e, "template");
  }
  const fn: TemplateFn = (data, budget) =>
    renderWithin(evaluationBudget("template", budget), () => {
      const out = compiled(data, RUNTIME_OPTIONS);
      if (out.length > MAX_TEMPLATE_OUTPUT) chargeText(out.length);
      return out;
    });
  cache.set(text, fn);
  return fn;
}
