// JSON merge patch (RFC 7396), pure and without zod, so the extension bundles it (light subpath
// `@crumbs/schemas/merge-patch`). The API merges with it too and stores the result under its
// version check, so the rule has this one home.

/** The media type of a PATCH whose body is a merge patch of the breadcrumb. */
export const MERGE_PATCH_CONTENT_TYPE = "application/merge-patch+json";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * RFC 7396 section 2: an object patch merges member by member, recursively, a `null` member removes
 * the key; anything else (an array, a scalar, null) replaces the target whole.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

/** Structural equality of JSON values (key order ignored, as jsonb ignores it). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (!isObject(a) || !isObject(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * The smallest merge patch taking object `prev` to object `next`: changed members only, recursing
 * into objects present on both sides, `null` for removed keys. Undefined when no merge patch can
 * say it: a merge patch cannot set an object member to `null` (null means "remove"), so a `next`
 * holding one that `prev` lacks needs a full write. Undefined too when nothing changed.
 */
export function mergePatchBetween(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> | undefined {
  const patch = diff(prev, next);
  if (Object.keys(patch).length === 0) return undefined;
  return jsonEqual(applyMergePatch(prev, patch), next) ? patch : undefined;
}

function diff(prev: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(prev)) if (!Object.hasOwn(next, key)) patch[key] = null;
  for (const [key, value] of Object.entries(next)) {
    const before = prev[key];
    if (Object.hasOwn(prev, key) && jsonEqual(before, value)) continue;
    patch[key] = isObject(before) && isObject(value) ? diff(before, value) : value;
  }
  return patch;
}

/** The top-level keys whose value differs between `prev` and `next` (added, removed or changed), sorted. */
export function changedKeys(prev: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  return [...keys].filter((k) => Object.hasOwn(prev, k) !== Object.hasOwn(next, k) || !jsonEqual(prev[k], next[k])).sort();
}
