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

const SCROLL = "@@scroll@@";
const VISIT = "@@visit@@";
const patchBodies = new Map<number, string>();

/**
 * `JSON.stringify({ context: pageContext(n, version) })`, from a text made once per page: the load
 * generators send one per PATCH, and cloning and serialising the context each time cost the load
 * generator more CPU than sending the request.
 */
export function pageContextPatchBody(n: number, version: number): string {
  let text = patchBodies.get(n);
  if (text === undefined) {
    const context = pageContext(n, 1) as Context;
    context.viewport = { ...context.viewport, scrollY: SCROLL };
    context.content = { ...context.content, mainText: String(context.content.mainText).replace(/\(visit 1\)$/, `(visit ${VISIT})`) };
    text = JSON.stringify({ context });
    patchBodies.set(n, text);
  }
  // The scroll marker stands where a number goes: its quotes go with it.
  return text.replace(`"${SCROLL}"`, String((version * 40) % 4000)).replace(VISIT, String(version));
}
