// How a role selector's `name` matches accessible names (@crumbs/schemas/browser-action, role
// selectors): `includes` (the default) is case-insensitive and prefers whole names ("Save" finds the
// button "Save" before "Save draft"), `exact` keeps case and needs the whole name (spaces collapsed),
// `regex` is an RE2 pattern (linear time; the content script gets the engine only when a regex is
// given, see content/dom/regex-engine.ts). Pure: the names come in as strings.

export type NameMode = "exact" | "includes" | "regex";

/** A compiled pattern: `test` is linear in the input. */
export interface NameTester {
  test(s: string): boolean;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
const fold = (s: string) => collapse(s).toLowerCase();

/** Indexes of `names` the wanted name matches under `mode`. */
export function matchNames(names: readonly string[], wanted: string, mode: NameMode, regex?: NameTester): number[] {
  const all = names.map((_, i) => i);
  if (mode === "regex") {
    if (!regex) throw new Error("a regex name needs a compiled pattern");
    return all.filter((i) => regex.test(names[i]!));
  }
  if (mode === "exact") {
    const whole = collapse(wanted);
    return all.filter((i) => collapse(names[i]!) === whole);
  }
  const w = fold(wanted);
  const whole = all.filter((i) => fold(names[i]!) === w);
  return whole.length ? whole : all.filter((i) => fold(names[i]!).includes(w));
}
