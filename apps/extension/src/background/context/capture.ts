import * as z from "@crumbs/schemas/zod-mini";
import { SEED_PAGE_CONTEXT_HINTS } from "@crumbs/schemas/seed-page-hints";
import { execute } from "../commands/execute.ts";
import { fingerprint } from "./fingerprint.ts";
import { interactiveElements } from "./interactive.ts";
import { pageInfoSchema, readPageInfo } from "./page-info.ts";
import type { PageUpdate } from "./living-breadcrumb.ts";

// One capture of a tab: the page context's fields (docs/extension.md, "The page context") read in
// the page plus the text snapshot from the snapshot engine (the same crumbs.execute the bus uses),
// shaped as the living breadcrumb's title, tags and context.

const snapshotDataSchema = z.object({ text: z.string(), refs: z.number(), tokens: z.number(), truncated: z.boolean() });

/**
 * The reference page context's hints (SEED_PAGE_CONTEXT_HINTS), minus their `summary` (the built-in
 * one also counts the snapshot's refs). The built-in defaults already drop dom.map and the session ids.
 */
const { summary: _seedSummary, ...seedTransforms } = SEED_PAGE_CONTEXT_HINTS.transform ?? {};
export const PAGE_CONTEXT_HINTS = { ...SEED_PAGE_CONTEXT_HINTS, transform: seedTransforms };

export interface CaptureInput {
  tab: chrome.tabs.Tab;
  extensionId: string;
  owner: string | undefined;
  now?: () => Date;
}

export async function capturePage({ tab, extensionId, owner, now = () => new Date() }: CaptureInput): Promise<PageUpdate> {
  const tabId = tab.id!;
  const [injected] = await chrome.scripting.executeScript({ target: { tabId }, func: readPageInfo });
  const info = pageInfoSchema.parse(injected?.result);
  const snap = await execute({ type: "snapshot", tab_id: tabId });
  const snapshot = snap.success ? snapshotDataSchema.parse(snap.data) : undefined;
  const context = {
    ...info,
    dom: { rootId: "document", interactiveElements: snapshot ? interactiveElements(snapshot.text) : {} },
    session: {
      extensionId,
      ...(owner ? { userId: owner } : {}),
      capturedAt: now().toISOString(),
      tabId,
      windowId: tab.windowId,
    },
    snapshot: snapshot
      ? { text: snapshot.text, refs: snapshot.refs, tokens: snapshot.tokens, truncated: snapshot.truncated }
      : { text: "", refs: 0, error: snap.error ?? "no snapshot" },
    llm_hints: PAGE_CONTEXT_HINTS,
  };
  return {
    title: `Browser: ${info.title || info.url}`.slice(0, 500),
    tags: pageTags(extensionId, info.domain),
    context,
    fingerprint: fingerprint({ ...info, tabId, snapshot }),
  };
}

export function pageTags(extensionId: string, domain: string): string[] {
  const tags = ["browser:context", "browser:active-tab", `extension:${extensionId}`];
  if (domain && !/\s/.test(domain)) tags.push(`url:${domain}`);
  return tags;
}
