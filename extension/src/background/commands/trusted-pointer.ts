import { pointerRequestSchema, type PointerResponse } from "../../shared/pointer-message.ts";

// The real pointer, for hover: chrome.debugger's Input.dispatchMouseEvent moves the browser's own mouse,
// so the page gets CSS :hover (a row's hover-only buttons appear) and trusted mouse events. The browser
// shows "crumbs started debugging this browser" while attached: we attach for the one move and detach
// right after. Only a tab that is running an element action may ask, and only for a move (no clicks).

/** Tabs with an element action in flight: the only ones whose content script may move the pointer. */
const acting = new Map<number, number>();

/** Runs `fn` (an element action on `tabId`) with that tab allowed to move the pointer. */
export async function whileActing<T>(tabId: number, fn: () => Promise<T>): Promise<T> {
  acting.set(tabId, (acting.get(tabId) ?? 0) + 1);
  try {
    return await fn();
  } finally {
    const n = (acting.get(tabId) ?? 1) - 1;
    if (n > 0) acting.set(tabId, n);
    else acting.delete(tabId);
  }
}

async function moveTo(tabId: number, x: number, y: number): Promise<PointerResponse> {
  const target = { tabId };
  try {
    await chrome.debugger.attach(target, "1.3");
  } catch (e) {
    // DevTools or another debugger holds the tab, or the permission is missing: synthetic events instead.
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  try {
    await chrome.debugger.sendCommand(target, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none", pointerType: "mouse" });
    return { ok: true };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await chrome.debugger.detach(target).catch(() => {});
  }
}

/** Answers content scripts' pointer requests (shared/pointer-message.ts). */
export function listenForPointerRequests(): void {
  if (!chrome.debugger) return;
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    const parsed = pointerRequestSchema.safeParse(raw);
    if (!parsed.success || sender.id !== chrome.runtime.id) return false;
    const tabId = sender.tab?.id;
    if (tabId === undefined || !acting.has(tabId)) {
      sendResponse({ ok: false, error: "no action is running on this tab" } satisfies PointerResponse);
      return false;
    }
    moveTo(tabId, parsed.data.x, parsed.data.y).then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) }));
    return true;
  });
}
