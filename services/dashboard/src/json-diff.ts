export type DiffKind = "added" | "removed" | "changed";

export interface DiffEntry {
  /** JSONPath-like: `$.dom.title`, `$.links[3]`. */
  path: string;
  kind: DiffKind;
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The leaf-level differences between two JSON values, in document order: what a person
 * comparing two versions of a context wants to see. Arrays compare by index (a context's
 * arrays are lists of things on a page, where position is meaningful).
 */
export function diffJson(before: unknown, after: unknown, path = "$", out: DiffEntry[] = []): DiffEntry[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      if (i >= after.length) out.push({ path: child(path, i), kind: "removed", before: before[i] });
      else if (i >= before.length) out.push({ path: child(path, i), kind: "added", after: after[i] });
      else diffJson(before[i], after[i], child(path, i), out);
    }
    return out;
  }
  if (isObject(before) && isObject(after)) {
    for (const k of Object.keys(before)) {
      if (!(k in after)) out.push({ path: child(path, k), kind: "removed", before: before[k] });
      else diffJson(before[k], after[k], child(path, k), out);
    }
    for (const k of Object.keys(after)) {
      if (!(k in before)) out.push({ path: child(path, k), kind: "added", after: after[k] });
    }
    return out;
  }
  if (!Object.is(before, after)) out.push({ path, kind: "changed", before, after });
  return out;
}
