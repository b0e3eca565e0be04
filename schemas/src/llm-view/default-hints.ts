import type { LlmHints } from "./llm-hints-schema.ts";

// Built-in hints of known schemas: the first layer, which a schema.def.v1 breadcrumb overrides.

/**
 * browser.page.context.v1: merge keeps the context, including `snapshot` (the text a model acts
 * on by ref) and `pcd` (what the page offers, compact); the DOM hash map and the browser's session
 * ids are noise for a model. A writer that sends the same facts twice says which copy to hide in
 * its own hints, as the extension does (reference-page-hints.ts): these defaults serve every writer,
 * also one that sends only `content` and `dom`.
 */
export const PAGE_CONTEXT_DEFAULT_HINTS: LlmHints = {
  mode: "merge",
  transform: {
    summary: {
      type: "template",
      template:
        "The user is viewing '{{context.title}}' at {{context.domain}}. The page has {{count context.content.headings}} sections and {{count context.content.links}} links.{{#if context.snapshot}} The snapshot lists {{context.snapshot.refs}} elements that can be acted on by ref.{{/if}}{{#if context.pcd}} The pcd sums up what the page offers (login state {{context.pcd.loginState}}; its refs are the snapshot's).{{/if}}",
    },
  },
  exclude: ["dom.map", "session.extensionId", "session.tabId", "session.windowId"],
};

export const BUILTIN_HINTS: Readonly<Record<string, LlmHints>> = {
  "browser.page.context.v1": PAGE_CONTEXT_DEFAULT_HINTS,
};

export function builtinHintsFor(schemaName: string): LlmHints | undefined {
  return Object.hasOwn(BUILTIN_HINTS, schemaName) ? BUILTIN_HINTS[schemaName] : undefined;
}
