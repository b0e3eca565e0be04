// A strict JSONPath subset with its own evaluator. Why not evaluate with jsonpath-plus directly:
// its parser accepts almost any string (a typo is silently a different path) and it has script
// filters; the contract needs bad paths rejected when written and no script evaluation ever.
// jsonpath-plus (eval: false) stays as the reference implementation the tests compare against.
//
// Grammar:  $ ( .name | .* | [selectors] | ..name | ..* | ..[selectors] )*
//   selectors: 'quoted' | "quoted" | integer (negative counts from the end) | * | start:end[:step]
//              separated by commas (a union). Filters `?()` and script `()` are rejected.
// Names after a dot: letters, digits, `_` and `-`; anything else goes in quotes: $['og:title'].
// Only own properties are read, so prototypes are unreachable.

export class JsonPathSyntaxError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`invalid JSONPath ${JSON.stringify(path)}: ${reason}`);
  }
}

type Key = { t: "name"; name: string } | { t: "index"; index: number };
type Slice = { t: "slice"; start: number | undefined; end: number | undefined; step: number };
type Step = Key | Slice | { t: "wild" } | { t: "union"; items: Key[] } | { t: "desc"; inner: Step };

export interface CompiledPath {
  readonly source: string;
  readonly steps: readonly Step[];
  /** Only names and indexes: the path names at most one value. */
  readonly definite: boolean;
}

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

  const readBracket = (): Step => {
    i++; // [
    skipSpaces();
    if (source[i] === "?" || source[i] === "(") fail("filter and script expressions are not allowed", i);
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
          fail("filter and script expressions are not allowed", i);
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

function pushKey(node: unknown, key: Key, out: unknown[]): void {
  if (node === null || typeof node !== "object") return;
  if (key.t === "name") {
    if (Object.hasOwn(node, key.name)) out.push((node as Record<string, unknown>)[key.name]);
    return;
  }
  if (!Array.isArray(node)) return;
  const idx = key.index < 0 ? node.length + key.index : key.index;
  if (idx >= 0 && idx < node.length) out.push(node[idx]);
}

function pushChildren(node: unknown, out: unknown[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const v of node) out.push(v);
  } else {
    for (const k of Object.keys(node)) out.push((node as Record<string, unknown>)[k]);
  }
}

function pushSlice(node: unknown, s: Slice, out: unknown[]): void {
  if (!Array.isArray(node)) return;
  const len = node.length;
  const norm = (n: number | undefined, dflt: number) =>
    n === undefined ? dflt : n < 0 ? Math.max(0, len + n) : Math.min(len, n);
  const start = norm(s.start, 0);
  const end = norm(s.end, len);
  for (let j = start; j < end; j += s.step) out.push(node[j]);
}

function applyStep(step: Step, node: unknown, out: unknown[]): void {
  switch (step.t) {
    case "name":
    case "index":
      pushKey(node, step, out);
      return;
    case "wild":
      pushChildren(node, out);
      return;
    case "slice":
      pushSlice(node, step, out);
      return;
    case "union":
      for (const k of step.items) pushKey(node, k, out);
      return;
    case "desc": {
      // Pre-order walk with an explicit stack: a deeply nested context cannot overflow the call stack.
      const stack: unknown[] = [node];
      while (stack.length > 0) {
        const cur = stack.pop();
        applyStep(step.inner, cur, out);
        if (cur !== null && typeof cur === "object") {
          const kids: unknown[] = [];
          pushChildren(cur, kids);
          for (let j = kids.length - 1; j >= 0; j--) stack.push(kids[j]);
        }
      }
      return;
    }
  }
}

/** Every value the path selects, in document order. */
export function evaluateJsonPath(path: CompiledPath, root: unknown): unknown[] {
  let current: unknown[] = [root];
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const node of current) applyStep(step, node, next);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/** The contract's `extract`: a definite path gives its value or null, any other path an array. */
export function extractJsonPath(path: CompiledPath, root: unknown): unknown {
  const values = evaluateJsonPath(path, root);
  if (!path.definite) return values;
  return values.length === 0 || values[0] === undefined ? null : values[0];
}
