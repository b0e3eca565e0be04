import type { WorkBudget } from "../budget.ts";
import { HintCompileError } from "./hint-compile-error.ts";
import { deepEqual } from "../json-values.ts";
import { lengthOf } from "./length-of.ts";
import { FORBIDDEN_SEGMENTS } from "./forbidden-segments.ts";
import { LruCache } from "../lru.ts";

// The tiny expression language of `literal` strings written as exactly `{{ expression }}`.
// No eval, no Function: a hand-written recursive-descent parser and a tree walker.
//
//   expr    := or
//   or      := and ( "||" and )*
//   and     := cmp ( "&&" cmp )*
//   cmp     := unary ( ("=="|"!="|">="|"<="|">"|"<") unary )?
//   unary   := "!" unary | primary
//   primary := number | 'string' | "string" | true | false | null | path | "(" expr ")"
//   path    := root ( "." name | "[" integer "]" | "[" 'string' "]" )*   e.g. context.content.forms.length
//   root    := name; in a JSONPath filter (`{ filter: true }`) only @ (the current item) or $ (the root)
//
// Anything else is refused with a message saying why: calls, assignment, `;`, template strings,
// arrow functions, arithmetic, and path segments naming prototype machinery (`constructor`...).
// `.length` follows the contract: arrays and strings their length, plain objects their key count.
// `==`/`!=` compare deeply; ordering compares two numbers or two strings, anything else is false.
// `&&`/`||` return an operand like JavaScript; falsy are undefined, null, false, 0, NaN, "" and [].
// A missing path is null in the output.

export type Expr =
  | { k: "lit"; v: unknown }
  | { k: "path"; segs: (string | number)[] }
  | { k: "not"; e: Expr }
  | { k: "and" | "or"; l: Expr; r: Expr }
  | { k: "cmp"; op: string; l: Expr; r: Expr };

export interface ParseOptions {
  /** A JSONPath filter body: paths start with @ or $, bare names are refused. */
  filter?: boolean;
}

export const MAX_EXPRESSION_LENGTH = 1000;
const MAX_DEPTH = 32;

type Tok = { t: "num"; v: number } | { t: "str"; v: string } | { t: "name"; v: string } | { t: "op"; v: string };

const REFUSED: Record<string, string> = {
  ";": "`;` is not allowed: one expression only",
  "`": "template strings are not allowed",
  "=": "assignment is not allowed (use == to compare)",
};

function tokenize(src: string, filter: boolean): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (["==", "!=", ">=", "<=", "&&", "||"].includes(two)) {
      if (src[i + 2] === "=") throw new HintCompileError(`unsupported operator ${two}= (use ${two})`);
      toks.push({ t: "op", v: two });
      i += 2;
      continue;
    }
    if (two === "=>") throw new HintCompileError("functions are not allowed");
    if (filter && (c === "@" || c === "$")) {
      toks.push({ t: "name", v: c });
      i++;
      continue;
    }
    if (REFUSED[c]) throw new HintCompileError(REFUSED[c]);
    if ("!<>().[]".includes(c)) {
      toks.push({ t: "op", v: c });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      let out = "";
      i++;
      while (i < src.length && src[i] !== c) {
        if (src[i] === "\\" && i + 1 < src.length) i++;
        out += src[i];
        i++;
      }
      if (src[i] !== c) throw new HintCompileError("unterminated string");
      i++;
      toks.push({ t: "str", v: out });
      continue;
    }
    const num = /^-?\d+(\.\d+)?/.exec(src.slice(i));
    if (num && (c !== "-" || /\d/.test(src[i + 1] ?? ""))) {
      toks.push({ t: "num", v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i));
    if (name) {
      toks.push({ t: "name", v: name[0] });
      i += name[0].length;
      continue;
    }
    throw new HintCompileError(`unexpected character ${JSON.stringify(c)}`);
  }
  return toks;
}

export function parseExpression(src: string, options: ParseOptions = {}): Expr {
  const filter = options.filter === true;
  if (src.length > MAX_EXPRESSION_LENGTH) throw new HintCompileError(`expression longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const toks = tokenize(src, filter);
  if (toks.length === 0) throw new HintCompileError("empty expression");
  let pos = 0;
  const peek = () => toks[pos];
  const isOp = (v: string) => peek()?.t === "op" && peek()!.v === v;
  const expectOp = (v: string) => {
    if (!isOp(v)) throw new HintCompileError(`expected ${v}`);
    pos++;
  };

  const orExpr = (d: number): Expr => {
    if (d > MAX_DEPTH) throw new HintCompileError("expression is nested too deeply");
    let l = andExpr(d);
    while (isOp("||")) {
      pos++;
      l = { k: "or", l, r: andExpr(d) };
    }
    return l;
  };
  const andExpr = (d: number): Expr => {
    let l = cmpExpr(d);
    while (isOp("&&")) {
      pos++;
      l = { k: "and", l, r: cmpExpr(d) };
    }
    return l;
  };
  const cmpExpr = (d: number): Expr => {
    const l = unary(d);
    const t = peek();
    if (t?.t === "op" && ["==", "!=", ">=", "<=", ">", "<"].includes(t.v)) {
      pos++;
      return { k: "cmp", op: t.v, l, r: unary(d) };
    }
    return l;
  };
  const unary = (d: number): Expr => {
    if (d > MAX_DEPTH) throw new HintCompileError("expression is nested too deeply");
    if (isOp("!")) {
      pos++;
      return { k: "not", e: unary(d + 1) };
    }
    return primary(d);
  };
  const primary = (d: number): Expr => {
    const t = peek();
    if (!t) throw new HintCompileError("unexpected end of expression");
    if (t.t === "op" && t.v === "(") {
      pos++;
      const e = orExpr(d + 1);
      expectOp(")");
      return e;
    }
    pos++;
    if (t.t === "num" || t.t === "str") return { k: "lit", v: t.v };
    if (t.t === "name") {
      if (t.v === "true" || t.v === "false") return { k: "lit", v: t.v === "true" };
      if (t.v === "null") return { k: "lit", v: null };
      if (filter !== (t.v === "@" || t.v === "$")) {
        throw new HintCompileError(
          filter ? `a filter path starts with @ (the current item) or $ (the root), not "${t.v}"` : `unexpected ${t.v}`,
        );
      }
      const segs: (string | number)[] = [t.v];
      for (;;) {
        if (isOp(".")) {
          pos++;
          const n = peek();
          if (n?.t !== "name") throw new HintCompileError("expected a name after .");
          pos++;
          segs.push(n.v);
        } else if (isOp("[")) {
          pos++;
          const n = peek();
          if (n?.t === "str") segs.push(n.v);
          else if (n?.t === "num" && Number.isInteger(n.v)) segs.push(n.v);
          else throw new HintCompileError("expected an integer index or a quoted name");
          pos++;
          expectOp("]");
        } else break;
      }
      for (const s of segs) {
        if (typeof s === "string" && FORBIDDEN_SEGMENTS.has(s)) throw new HintCompileError(`path segment "${s}" is not allowed`);
      }
      if (isOp("(")) throw new HintCompileError("function calls are not allowed");
      return { k: "path", segs };
    }
    throw new HintCompileError(`unexpected ${t.v}`);
  };

  const e = orExpr(0);
  if (pos < toks.length) throw new HintCompileError(`unexpected ${String(toks[pos]!.v)}`);
  return e;
}

const cache = new LruCache<string, Expr>(1000);

export function compileExpression(src: string): Expr {
  const hit = cache.get(src);
  if (hit) return hit;
  const e = parseExpression(src);
  cache.set(src, e);
  return e;
}

export function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return Boolean(v);
}

function lookup(root: unknown, segs: readonly (string | number)[]): unknown {
  let cur = root;
  for (const s of segs) {
    if (cur === null || cur === undefined) return undefined;
    if (s === "length" && !(typeof cur === "object" && !Array.isArray(cur) && Object.hasOwn(cur, "length"))) {
      cur = lengthOf(cur);
      continue;
    }
    if (typeof cur !== "object") return undefined;
    if (typeof s === "number") {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[s < 0 ? cur.length + s : s];
      continue;
    }
    cur = Object.hasOwn(cur, s) ? (cur as Record<string, unknown>)[s] : undefined;
  }
  return cur;
}

function compare(op: string, a: unknown, b: unknown, budget: WorkBudget | undefined): boolean {
  if (op === "==") return deepEqual(a ?? null, b ?? null, budget);
  if (op === "!=") return !deepEqual(a ?? null, b ?? null, budget);
  const bothNum = typeof a === "number" && typeof b === "number";
  const bothStr = typeof a === "string" && typeof b === "string";
  if (!bothNum && !bothStr) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case ">":
      return x > y;
    case ">=":
      return x >= y;
    case "<":
      return x < y;
    default:
      return x <= y;
  }
}

/** Evaluates a parsed expression; with a budget, each node and each value compared costs a unit. */
export function evaluateExpression(e: Expr, data: unknown, budget?: WorkBudget): unknown {
  budget?.spend();
  switch (e.k) {
    case "lit":
      return e.v;
    case "path":
      return lookup(data, e.segs);
    case "not":
      return !truthy(evaluateExpression(e.e, data, budget));
    case "and": {
      const l = evaluateExpression(e.l, data, budget);
      return truthy(l) ? evaluateExpression(e.r, data, budget) : l;
    }
    case "or": {
      const l = evaluateExpression(e.l, data, budget);
      return truthy(l) ? l : evaluateExpression(e.r, data, budget);
    }
    case "cmp":
      return compare(e.op, evaluateExpression(e.l, data, budget), evaluateExpression(e.r, data, budget), budget);
  }
}
