import { ActionError, NeedsConfirmation } from "../../shared/action-error.ts";
import { contentResponseSchema, type ContentRequest } from "../../shared/content-messages.ts";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** An error the page's content script answered with (as opposed to a frame that could not be reached). */
export class PageRefusal extends ActionError {}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ActionError("timeout", `${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;

/**
 * Frames loaded before the extension (or iframes added after document_idle) have no content script:
 * inject it once and retry. The content script guards against a second install.
 */
async function inject(tabId: number, frameId: number): Promise<void> {
  try {
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ["content.js"] });
  } catch (e) {
    throw new ActionError("blocked_by_policy", `cannot run in this page or frame: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function sendOnce(tabId: number, frameId: number, req: ContentRequest): Promise<unknown> {
  return chrome.tabs.sendMessage(tabId, req, { frameId });
}

/** One request to one frame's content script; resolves to `{data, docId, rebound?}` or throws ActionError. */
export async function sendToFrame(
  tabId: number,
  frameId: number,
  req: ContentRequest,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<{ data: unknown; docId: string; rebound?: { from: string; ref: string } }> {
  const what = `the page (tab ${tabId}, frame ${frameId})`;
  let raw: unknown;
  try {
    raw = await withTimeout(sendOnce(tabId, frameId, req), timeoutMs, what);
  } catch (e) {
    if (e instanceof ActionError || !NO_RECEIVER.test(String(e))) throw e instanceof ActionError ? e : new ActionError("not_found", String(e));
    await inject(tabId, frameId);
    raw = await withTimeout(sendOnce(tabId, frameId, req), timeoutMs, what);
  }
  const parsed = contentResponseSchema.safeParse(raw);
  if (!parsed.success) throw new ActionError("not_found", `${what} gave no usable answer`);
  const res = parsed.data;
  if (!res.ok) throw res.confirm ? new NeedsConfirmation(res.confirm) : new PageRefusal(res.code, res.message, res.candidates);
  return { data: res.data, docId: res.doc_id, ...(res.rebound ? { rebound: res.rebound } : {}) };
}
