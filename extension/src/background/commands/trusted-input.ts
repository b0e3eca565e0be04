import { pointerRequestSchema, type PointerResponse } from "../../shared/pointer-message.ts";
import {
  TRUSTED_INPUT_KEY,
  trustedFor,
  trustedInputRequestSchema,
  trustedSitesSchema,
  type TrustedInputResponse,
  type TrustedKey,
  type TrustedOp,
} from "../../shared/trusted-input.ts";

// Input the browser itself dispatches, through chrome.debugger's DevTools protocol: the page gets events
// with `isTrusted` true, and CSS :hover for a pointer move. Two users of it:
//  - hover (any tab): the real pointer's move, attached for the one move and detached right after;
//  - trusted-input mode (sites the user listed in the options page, shared/trusted-input.ts): clicks, keys
//    and text of an element action, attached once for the action and detached when it ends or the user
//    presses Stop.
// While attached, Chrome shows "crumbs started debugging this browser" above the page; that banner is the
// user's sign that real input is being sent, and its Cancel detaches us (onDetach), which ends trusted mode
// for the rest of that action. Only a tab that is running an element action may ask for input.

const PROTOCOL = "1.3";

interface Acting {
  count: number;
  trusted: boolean;
  /** Stop was pressed during the action: no more input for it. */
  stopped: boolean;
}

/** Tabs with an element action in flight: the only ones whose content script may ask for input. */
const acting = new Map<number, Acting>();
/** Tabs the debugger is attached to for a trusted-mode action (attaching takes ~10-30 ms, once per action). */
const attached = new Map<number, Promise<void>>();

export function debuggedTabs(): number[] {
  return [...attached.keys()];
}

/** Is trusted input on for the tab's page? Read per action, so a change in the options applies at once. */
export async function trustedInputOn(url: string | undefined): Promise<boolean> {
  const raw = (await chrome.storage.local.get(TRUSTED_INPUT_KEY))[TRUSTED_INPUT_KEY];
  const parsed = trustedSitesSchema.safeParse(raw ?? []);
  return parsed.success && trustedFor(url, parsed.data);
}

/** Runs `fn` (an element action on `tabId`) with that tab allowed to ask for input; detaches after it. */
export async function whileActing<T>(tabId: number, fn: () => Promise<T>, opts: { trusted?: boolean } = {}): Promise<T> {
  const entry = acting.get(tabId) ?? { count: 0, trusted: false, stopped: false };
  entry.count += 1;
  entry.trusted ||= opts.trusted === true;
  acting.set(tabId, entry);
  try {
    return await fn();
  } finally {
    entry.count -= 1;
    if (entry.count <= 0) {
      acting.delete(tabId);
      await detach(tabId);
    }
  }
}

async function detach(tabId: number): Promise<void> {
  const session = attached.get(tabId);
  if (!session) return;
  attached.delete(tabId);
  await session.catch(() => {});
  await chrome.debugger.detach({ tabId }).catch(() => {});
}

/** Stop: ends trusted input on these tabs (all when none given) at once, not when the running action ends. */
export async function endTrustedInput(tabIds?: readonly number[]): Promise<void> {
  const ids = tabIds ?? [...acting.keys()];
  for (const id of ids) {
    const entry = acting.get(id);
    if (entry) entry.stopped = true;
  }
  await Promise.all(ids.map(detach));
}

async function attachFor(tabId: number): Promise<void> {
  let session = attached.get(tabId);
  if (!session) {
    session = chrome.debugger.attach({ tabId }, PROTOCOL);
    attached.set(tabId, session);
    session.catch(() => attached.delete(tabId));
  }
  await session;
}

const send = (tabId: number, method: string, params: Record<string, unknown>) => chrome.debugger.sendCommand({ tabId }, method, params);

// The DevTools protocol's modifier bits.
const MODIFIER_BITS: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
const MODIFIER_KEYS: Record<string, TrustedKey> = {
  Alt: { key: "Alt", code: "AltLeft", keyCode: 18 },
  Control: { key: "Control", code: "ControlLeft", keyCode: 17 },
  Meta: { key: "Meta", code: "MetaLeft", keyCode: 91 },
  Shift: { key: "Shift", code: "ShiftLeft", keyCode: 16 },
};

async function key(tabId: number, type: "down" | "up", k: TrustedKey, modifiers: number): Promise<void> {
  // Control, Alt and Meta chords insert no text (Control+A selects all): a rawKeyDown, as Chrome sends for them.
  const text = modifiers & (MODIFIER_BITS.Alt! | MODIFIER_BITS.Control! | MODIFIER_BITS.Meta!) ? undefined : k.text;
  await send(tabId, "Input.dispatchKeyEvent", {
    type: type === "up" ? "keyUp" : text ? "keyDown" : "rawKeyDown",
    key: k.key,
    code: k.code,
    windowsVirtualKeyCode: k.keyCode,
    nativeVirtualKeyCode: k.keyCode,
    modifiers,
    ...(type === "down" && text ? { text, unmodifiedText: text } : {}),
  });
}

async function dispatch(tabId: number, op: TrustedOp): Promise<void> {
  if (op.type === "click") {
    const at = { x: op.x, y: op.y, pointerType: "mouse" };
    await send(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", ...at, button: "none" });
    for (let n = 1; n <= op.count; n++) {
      await send(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", ...at, button: "left", buttons: 1, clickCount: n });
      await send(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", ...at, button: "left", buttons: 0, clickCount: n });
    }
    return;
  }
  if (op.type === "text") {
    await send(tabId, "Input.insertText", { text: op.text });
    return;
  }
  let bits = 0;
  for (const m of op.modifiers) {
    bits |= MODIFIER_BITS[m]!;
    await key(tabId, "down", MODIFIER_KEYS[m]!, bits);
  }
  await key(tabId, "down", op.key, bits);
  await key(tabId, "up", op.key, bits);
  for (const m of [...op.modifiers].reverse()) {
    bits &= ~MODIFIER_BITS[m]!;
    await key(tabId, "up", MODIFIER_KEYS[m]!, bits);
  }
}

async function trustedInput(tabId: number, op: TrustedOp): Promise<TrustedInputResponse> {
  const entry = acting.get(tabId);
  if (!entry) return { ok: false, error: "no action is running on this tab" };
  if (entry.stopped) return { ok: false, stopped: true, error: "the user stopped the task" };
  if (!entry.trusted) return { ok: false, error: "trusted input is off for this site" };
  try {
    await attachFor(tabId);
  } catch (e) {
    // DevTools or another debugger holds the tab: the content script falls back to synthetic events.
    return { ok: false, error: `the debugger could not attach: ${e instanceof Error ? e.message : String(e)}` };
  }
  try {
    await dispatch(tabId, op);
    return { ok: true };
  } catch (e) {
    return { ok: false, ...(entry.stopped ? { stopped: true } : {}), error: e instanceof Error ? e.message : String(e) };
  }
}

async function moveTo(tabId: number, x: number, y: number): Promise<PointerResponse> {
  const own = !attached.has(tabId);
  try {
    if (own) await chrome.debugger.attach({ tabId }, PROTOCOL);
    else await attached.get(tabId);
  } catch (e) {
    // DevTools or another debugger holds the tab, or the permission is missing: synthetic events instead.
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  try {
    await send(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none", pointerType: "mouse" });
    return { ok: true };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    if (own) await chrome.debugger.detach({ tabId }).catch(() => {});
  }
}

/** Answers content scripts' pointer (hover) and trusted-input requests. */
export function listenForInputRequests(): void {
  if (!chrome.debugger) return;
  // The user's Cancel on Chrome's banner, a closed tab or DevTools taking over: the session is gone.
  chrome.debugger.onDetach.addListener((source) => {
    if (source.tabId !== undefined) attached.delete(source.tabId);
  });
  chrome.runtime.onMessage.addListener((raw: unknown, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id) return false;
    const tabId = sender.tab?.id;
    const pointer = pointerRequestSchema.safeParse(raw);
    if (pointer.success) {
      if (tabId === undefined || !acting.has(tabId)) {
        sendResponse({ ok: false, error: "no action is running on this tab" } satisfies PointerResponse);
        return false;
      }
      moveTo(tabId, pointer.data.x, pointer.data.y).then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) }));
      return true;
    }
    const input = trustedInputRequestSchema.safeParse(raw);
    if (!input.success) return false;
    if (tabId === undefined) {
      sendResponse({ ok: false, error: "not from a tab" } satisfies TrustedInputResponse);
      return false;
    }
    trustedInput(tabId, input.data.op).then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) }));
    return true;
  });
}
