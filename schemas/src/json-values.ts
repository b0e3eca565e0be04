import type { WorkBudget } from "./budget.ts";

// Helpers for plain JSON data (what a breadcrumb context is made of).

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Structural equality of JSON values; with a budget, every pair of values compared costs a unit. */
export function deepEqual(a: unknown, b: unknown, budget?: WorkBudget): boolean {
  budget?.spend();
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], budget)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b as object, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], budget)) return false;
  }
  return true;
}

/** Nesting depth of a JSON value, stopping early once `limit` is exceeded (iterative: no stack overflow). */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d > limit) return true;
    for (const child of Object.values(v as object)) stack.push([child, d + 1]);
  }
  return false;
}

/** Defines an own enumerable property, so a `__proto__` key stays data instead of changing the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Path of the first `__proto__` key anywhere in the value, or undefined. JSON.parse makes such a key
 * an own property, but zod (and any `obj[key] = v` copy) would turn it into a prototype: refused on write.
 */
export function findProtoKey(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, ""]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    for (const key of Object.keys(v)) {
      const path = at ? `${at}.${key}` : key;
      if (key === "__proto__") return path;
      stack.push([(v as Record<string, unknown>)[key], path]);
    }
  }
  return undefined;
}
