import type { WorkBudget } from "../budget.ts";
import { passesFilter } from "./json-path-filter.ts";
import type { Key, Slice, Step } from "./ast.ts";

// The evaluator of our JSONPath subset: iterative, own properties only, and bounded. Every node a
// step is applied to and every value it yields is charged to the work budget, so `$..*..*..*` on a
// deep document stops with BudgetExceededError instead of growing its result set without end.
// jsonpath-plus cannot be bounded (no hook per node), so it is only the tests' reference
// (json-path-plus.ts); the property test checks both give the same answers.

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

function pushFiltered(node: unknown, step: Extract<Step, { t: "filter" }>, root: unknown, out: unknown[], budget: WorkBudget): void {
  const kids: unknown[] = [];
  pushChildren(node, kids);
  for (const kid of kids) if (passesFilter(step.expr, kid, root, budget)) out.push(kid);
}

function applyStep(step: Step, node: unknown, root: unknown, out: unknown[], budget: WorkBudget): void {
  budget.spend();
  const before = out.length;
  applyOne(step, node, root, out, budget);
  // Results cost too (twice a visit: each is kept, then walked by the next step): a wildcard
  // over a wide object yields many values from one visit.
  if (step.t !== "desc" && out.length > before) budget.spend(2 * (out.length - before));
}

function applyOne(step: Step, node: unknown, root: unknown, out: unknown[], budget: WorkBudget): void {
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
    case "filter":
      pushFiltered(node, step, root, out, budget);
      return;
    case "union":
      for (const k of step.items) pushKey(node, k, out);
      return;
    case "desc": {
      // Pre-order walk with an explicit stack: a deeply nested context cannot overflow the call stack.
      const stack: unknown[] = [node];
      while (stack.length > 0) {
        const cur = stack.pop();
        applyStep(step.inner, cur, root, out, budget);
        if (cur === null || typeof cur !== "object") continue;
        if (Array.isArray(cur)) {
          budget.spend(cur.length);
          for (let j = cur.length - 1; j >= 0; j--) stack.push(cur[j]);
        } else {
          const keys = Object.keys(cur);
          budget.spend(keys.length);
          for (let j = keys.length - 1; j >= 0; j--) stack.push((cur as Record<string, unknown>)[keys[j]!]);
        }
      }
      return;
    }
  }
}

/** Every value the steps select; throws BudgetExceededError when the walk outgrows `budget`. */
export function evaluateOwn(steps: readonly Step[], root: unknown, budget: WorkBudget): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const node of current) applyStep(step, node, root, next, budget);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}
