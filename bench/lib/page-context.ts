import { REFERENCE_PAGE_CONTEXT, REFERENCE_PAGE_CONTEXT_TAGS } from "@crumbs/schemas";

type Context = Record<string, unknown> & { content: Record<string, unknown>; viewport: Record<string, unknown> };

/**
 * A page context like the reference one (REFERENCE_PAGE_CONTEXT), without its llm_hints: about 2.7 KB
 * of JSON. `n` varies the page and `version` the scroll position and text, so every PATCH really changes
 * the row.
 */
export function pageContext(n: number, version = 1): Record<string, unknown> {
  const base = structuredClone(REFERENCE_PAGE_CONTEXT) as unknown as Context;
  delete base.llm_hints;
  base.url = `https://github.com/rcrt/docs/page-${n}`;
  base.title = `RCRT Documentation ${n}`;
  base.viewport = { ...base.viewport, scrollY: (version * 40) % 4000 };
  base.content = { ...base.content, mainText: `${String(base.content.mainText)} (visit ${version})` };
  return base;
}

export function pageContextTags(n: number): string[] {
  return REFERENCE_PAGE_CONTEXT_TAGS.map((t) => (t.startsWith("extension:") ? `extension:bench${String(n).padStart(4, "0")}` : t));
}
