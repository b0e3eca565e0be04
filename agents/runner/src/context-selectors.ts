import type { Selector } from "@crumbs/agent-sdk";

type Tagged = { tags: readonly string[] };

const PLACEHOLDER = /\{\{\s*trigger\.([A-Za-z0-9_-]+)\s*\}\}/g;

/** The value of the trigger's `<prefix>:<value>` tag: `extension` -> the extension id. */
export function tagValue(b: Tagged, prefix: string): string | undefined {
  const tag = b.tags.find((t) => t.startsWith(`${prefix}:`));
  return tag?.slice(prefix.length + 1);
}

/**
 * context_selectors may name the trigger's own tags: `extension:{{trigger.extension}}`
 * becomes `extension:<id>` of the trigger's `extension:<id>` tag. A tag whose
 * placeholder the trigger cannot fill is dropped, so a message without an
 * extension tag still sees the latest page context of any extension.
 */
export function resolveContextSelector(selector: Selector, trigger: Tagged): Selector {
  const fill = (tags: string[] | undefined): string[] | undefined => {
    if (!tags) return undefined;
    const out: string[] = [];
    for (const tag of tags) {
      let missing = false;
      const value = tag.replace(PLACEHOLDER, (_m, prefix: string) => {
        const v = tagValue(trigger, prefix);
        if (v === undefined) missing = true;
        return v ?? "";
      });
      if (!missing) out.push(value);
    }
    return out;
  };
  const result: Selector = { ...selector };
  for (const clause of ["any_tags", "all_tags", "none_tags"] as const) {
    const filled = fill(selector[clause]);
    if (filled === undefined) continue;
    // An emptied any_tags would be invalid (and would mean "no tag at all"); drop the clause.
    if (filled.length === 0) delete result[clause];
    else result[clause] = filled;
  }
  return result;
}
