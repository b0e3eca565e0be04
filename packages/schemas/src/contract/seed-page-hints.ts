import type { LlmHints } from "../llm-view/llm-hints-schema.ts";

// The reference llm_hints for browser.page.context.v1, written inside the context as the reference
// page context does (fixtures/page-context-example.ts).
// A module of its own, importing only a type, so the extension's worker can take them through
// the light `@crumbs/schemas/seed-page-hints` subpath without the template engine.

export const SEED_PAGE_CONTEXT_HINTS: LlmHints = {
  mode: "merge",
  transform: {
    summary: {
      type: "template",
      template:
        "The user is viewing '{{context.title}}' at {{context.domain}}. The page has {{context.content.headings.length}} sections and {{context.content.links.length}} links.",
    },
    interactive_summary: {
      type: "template",
      template:
        "There are {{context.dom.interactiveElements.length}} interactive elements on this page that the user can click or interact with.",
    },
    page_text: { type: "extract", value: "$.content.mainText" },
    page_structure: {
      type: "literal",
      literal: {
        headings: "{{context.content.headings}}",
        key_links: "{{context.content.links}}",
        forms_present: "{{context.content.forms.length > 0}}",
      },
    },
  },
  exclude: ["dom.map", "session.extensionId", "session.tabId", "session.windowId"],
};
