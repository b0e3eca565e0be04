import * as z from "@crumbs/schemas/zod-mini";
import { REFERENCE_PAGE_HINTS } from "@crumbs/schemas/reference-page-hints";
import { pcdSchema } from "@crumbs/schemas/pcd";
import { execute } from "../commands/execute.ts";
import { fingerprint } from "./fingerprint.ts";
import { interactiveElements } from "./interactive.ts";
import { pageInfoSchema, readPageInfo } from "./page-info.ts";
import type { PageUpdate } from "./living-breadcrumb.ts";

// One capture of a tab: the page context's fields (docs/extension.md, "The page context") read in
// the page plus the text snapshot and the page capability descriptor (pcd) from one walk of the
// snapshot engine (the same crumbs.execute the bus uses), shaped as the living breadcrumb's title,
// tags and context. Its llm_hints are the reference ones: each fact once (reference-page-hints.ts).

const snapshotDataSchema = z.object({
  text: z.string(),
  refs: z.number(),
  tokens: z.number(),
  truncated: z.boolean(),
  pcd: z.optional(pcdSchema),
});

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
  const snap = await execute({ type: "snapshot", tab_id: tabId, params: { pcd: true } });
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
    ...(snapshot?.pcd ? { pcd: snapshot.pcd } : {}),
    // Without a snapshot the page's text and links are only in `content`: the built-in hints keep it.
    ...(snapshot ? { llm_hints: REFERENCE_PAGE_HINTS } : {}),
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
