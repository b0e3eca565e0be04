import { isPlainObject } from "../json-values.ts";

/**
 * `.length` as the contract defines it: arrays and strings their length, a plain object the number
 * of its keys (unless it has its own `length` field), anything else undefined.
 */
export function lengthOf(value: unknown): unknown {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (isPlainObject(value)) return Object.hasOwn(value, "length") ? value.length : Object.keys(value).length;
  return undefined;
}
