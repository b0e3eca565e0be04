import { compileSelector, type CompiledSelector, type SelectorTarget } from "./selector-compile.ts";

// Finds the selectors matching a breadcrumb without testing every one. Each selector is filed under
// (schema name or *, tag or *) keys it cannot match without: its schema names, and either one of its
// all_tags or each of its any_tags. Of the all_tags it takes the one that the selectors already in the
// index require least often (`browser:active-tab` is everywhere, `extension:<id>` is rare). A
// breadcrumb then looks up at most 2 x (tags + 1) buckets and fully tests only those candidates.

interface Entry<T> {
  readonly id: string;
  readonly seq: number;
  readonly compiled: CompiledSelector;
  readonly value: T;
  readonly keys: readonly string[];
  stamp: number;
}

const ANY = "*";
const MAX_KEYS_PER_ENTRY = 64;

function isCompiled(s: unknown): s is CompiledSelector {
  return typeof s === "object" && s !== null && typeof (s as CompiledSelector).matches === "function" && "selector" in s;
}

function bucketKeys(compiled: CompiledSelector, tagUse: ReadonlyMap<string, number>): string[] {
  const s = compiled.selector;
  const names = s.schema_name === undefined ? [ANY] : typeof s.schema_name === "string" ? [s.schema_name] : [...new Set(s.schema_name)];
  let tags: string[] = [ANY];
  if (s.all_tags && s.all_tags.length > 0) {
    const use = (t: string) => tagUse.get(t) ?? 0;
    tags = [s.all_tags.reduce((a, b) => (use(b) < use(a) || (use(b) === use(a) && b.length > a.length) ? b : a))];
  } else if (s.any_tags && s.any_tags.length > 0) {
    tags = [...new Set(s.any_tags)];
  }
  if (names.length * tags.length > MAX_KEYS_PER_ENTRY) {
    // Too many combinations: file by the narrower dimension only.
    if (names.length <= tags.length && names[0] !== ANY) tags = [ANY];
    else names.splice(0, names.length, ANY);
  }
  const keys: string[] = [];
  for (const n of names) for (const t of tags) keys.push(n + "\n" + t);
  return keys;
}

export class SelectorIndex<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly buckets = new Map<string, Entry<T>[]>();
  private readonly tagUse = new Map<string, number>();
  private seq = 0;
  private stamp = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Adds or replaces the selector under `id`; throws InvalidSelectorError for an invalid selector. */
  add(id: string, selector: unknown, value: T): void {
    const compiled = isCompiled(selector) ? selector : compileSelector(selector);
    this.remove(id);
    const entry: Entry<T> = { id, seq: this.seq++, compiled, value, keys: bucketKeys(compiled, this.tagUse), stamp: 0 };
    for (const t of new Set(compiled.selector.all_tags)) this.tagUse.set(t, (this.tagUse.get(t) ?? 0) + 1);
    this.entries.set(id, entry);
    for (const k of entry.keys) {
      const bucket = this.buckets.get(k);
      if (bucket) bucket.push(entry);
      else this.buckets.set(k, [entry]);
    }
  }

  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    for (const t of new Set(entry.compiled.selector.all_tags)) {
      const n = (this.tagUse.get(t) ?? 1) - 1;
      if (n > 0) this.tagUse.set(t, n);
      else this.tagUse.delete(t);
    }
    for (const k of entry.keys) {
      const bucket = this.buckets.get(k);
      if (!bucket) continue;
      const at = bucket.indexOf(entry);
      if (at >= 0) {
        bucket[at] = bucket[bucket.length - 1]!;
        bucket.pop();
      }
      if (bucket.length === 0) this.buckets.delete(k);
    }
    return true;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Values of every matching selector, in the order they were added. */
  match(b: SelectorTarget): T[] {
    const stamp = ++this.stamp;
    const hits: Entry<T>[] = [];
    const visit = (key: string) => {
      const bucket = this.buckets.get(key);
      if (!bucket) return;
      for (const e of bucket) {
        if (e.stamp === stamp) continue;
        e.stamp = stamp;
        if (e.compiled.matches(b)) hits.push(e);
      }
    };
    for (const name of [b.schema_name, ANY]) {
      visit(name + "\n" + ANY);
      for (const t of b.tags) visit(name + "\n" + t);
    }
    if (hits.length > 1) hits.sort((x, y) => x.seq - y.seq);
    return hits.map((e) => e.value);
  }
}
