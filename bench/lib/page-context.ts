import { SEED_PAGE_CONTEXT_EXAMPLE, SEED_PAGE_CONTEXT_TAGS } from "@crumbs/schemas";

type Context = Record<string, unknown> & { content: Record<string, unknown>; viewport: Record<string, unknown> };

/**
 * A page context like the reference one (SEED_PAGE_CONTEXT_EXAMPLE), without its llm_hints: about 2.7 KB
 * of JSON. `n` varies the page and `version` the scroll position and text, so every PATCH really changes
 * the row.
 */
export function pageContext(n: number, version = 1): Record<string, unknown> {
  const base = structuredClone(SEED_PAGE_CONTEXT_EXAMPLE) as unknown as Context;
  delete base.llm_hints;
  base.url = `https://github.com/rcrt/docs/page-${n}`;
  base.title = `RCRT Documentation ${n}`;
  base.viewport = { ...base.viewport, scrollY: (version * 40) % 4000 };
  base.content = { ...base.content, mainText: `${String(base.content.mainText)} (visit ${version})` };
  return base;
}

export function pageContextTags(n: number): string[] {
  return SEED_PAGE_CONTEXT_TAGS.map((t) => (t.startsWith("extension:") ? `extension:bench${String(n).padStart(4, "0")}` : t));
}
