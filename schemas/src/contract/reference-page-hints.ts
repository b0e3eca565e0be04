import type { LlmHints } from "../llm-view/llm-hints-schema.ts";

// The reference llm_hints for browser.page.context.v1, written inside the context as the reference
// page context does (fixtures/page-context-example.ts) and as the extension does with every capture.
// A module of its own, importing only a type, so the extension's worker can take them through
// the light `@crumbs/schemas/reference-page-hints` subpath without the template engine.
//
// Each fact once: a page context carries several copies of the same facts, and a model pays for every
// copy. These hints keep one representation of each: the snapshot for the page's text and everything
// that can be acted on (by ref), the pcd for the compact view of what the page offers (its forms with
// their fields included), and the built-in summary (default-hints.ts). Hidden, with where the fact is:
//   content.mainText, headings, links, images   -> the snapshot's text, headings, links and img lines
//   content.forms                               -> pcd.forms (with refs)
//   dom.interactiveElements                     -> the snapshot's refs (the runner still reads it raw)
//   dom.map, session ids                        -> internals, as the built-in defaults say
//   meta.ogTitle, meta.ogDescription            -> the title and meta.description
//   favicon, meta.ogImage                       -> picture URLs a text model cannot use
// Transforms see the whole context, so a writer's own llm_hints can bring any of it back under a new
// output name, e.g. {"transform": {"page_text": {"type": "extract", "value": "$.content.mainText"}}}.

export const REFERENCE_PAGE_HINTS: LlmHints = {
  mode: "merge",
  exclude: [
    "content",
    "dom",
    "favicon",
    "meta.ogTitle",
    "meta.ogDescription",
    "meta.ogImage",
    "session.extensionId",
    "session.tabId",
    "session.windowId",
  ],
};
