import { ActionError } from "../../shared/action-error.ts";
import {
  TRUSTED_INPUT_GLOBAL,
  TRUSTED_INPUT_MESSAGE,
  trustedInputHint,
  type TrustedInputRequest,
  type TrustedInputResponse,
  type TrustedOp,
} from "../../shared/trusted-input.ts";
import type { ActionPoint } from "./actionability.ts";
import type { Chord } from "./keyboard.ts";
import { inTopFrame } from "./real-pointer.ts";

// The page side of trusted-input mode (shared/trusted-input.ts): the verb resolves its element and point
// here, in the page, and the worker sends the input through chrome.debugger. Where the worker cannot (a
// cross-origin frame whose offset this frame cannot know, DevTools holding the tab), the verb falls back to
// synthetic events and says so in its result (`input: "synthetic"`, `input_note`).

export type InputMode = "synthetic" | "trusted";

/** How a verb's input went, for its result: only in trusted mode, so default results stay as they were. */
export interface InputReport {
  input?: InputMode;
  input_note?: string;
}

const inFlight = globalThis as unknown as Record<typeof TRUSTED_INPUT_GLOBAL, number | undefined>;

async function ask(op: TrustedOp): Promise<TrustedInputResponse> {
  // The mask lets trusted events through while this is set (shared/trusted-input.ts).
  inFlight[TRUSTED_INPUT_GLOBAL] = (inFlight[TRUSTED_INPUT_GLOBAL] ?? 0) + 1;
  try {
    const res = (await chrome.runtime.sendMessage({ kind: TRUSTED_INPUT_MESSAGE, op } satisfies TrustedInputRequest)) as TrustedInputResponse | undefined;
    return res ?? { ok: false, error: "the extension worker gave no answer" };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    inFlight[TRUSTED_INPUT_GLOBAL] = Math.max(0, (inFlight[TRUSTED_INPUT_GLOBAL] ?? 1) - 1);
  }
}

/** One trusted input step; false (with the reason in `report`) when the worker could not send it. Stop ends the action. */
export async function trusted(op: TrustedOp, report: InputReport): Promise<boolean> {
  const res = await ask(op);
  if (res.stopped) throw new ActionError("cancelled", "the user stopped the task during this action");
  if (res.ok) {
    report.input ??= "trusted";
    return true;
  }
  report.input = "synthetic";
  report.input_note = `trusted input failed (${res.error ?? "unknown"}); sent synthetic events instead`;
  return false;
}

/** A trusted click (count 2: a double click) at the point, when the point is reachable from the top frame. */
export async function trustedClick(point: ActionPoint, count: 1 | 2, report: InputReport): Promise<boolean> {
  const top = inTopFrame(point);
  if (!top) {
    report.input = "synthetic";
    report.input_note = "trusted input cannot reach into this cross-origin frame; sent synthetic events instead";
    return false;
  }
  return trusted({ type: "click", x: top.x, y: top.y, count }, report);
}

export function trustedChord(chord: Chord, report: InputReport): Promise<boolean> {
  return trusted({ type: "key", key: chord.key, modifiers: chord.modifiers }, report);
}

/** How long a click's effect is watched for: the page's handlers run in the click's own task, and their DOM work by the next frame or two. */
const EFFECT_WINDOW_MS = 100;

/**
 * Watches whether anything on the page changed after an input (DOM, a field's value or checked state, the URL;
 * not focus, which the click itself moves),
 * so a synthetic click a page ignored (`isTrusted` checks) comes back as "nothing changed", with the hint.
 * Our own overlays (crumbs-* elements) do not count.
 */
export function watchEffects(el: Element): () => Promise<{ page_changed: false; note: string } | undefined> {
  const doc = el.ownerDocument;
  const win = doc.defaultView ?? window;
  let changed = false;
  const ours = (n: Node | null) => {
    for (let e: Node | null = n; e; e = e.parentNode) if (e instanceof Element && e.localName.startsWith("crumbs-")) return true;
    return false;
  };
  // The mask and the highlight coming or going (a child of <html>) are ours too.
  const theirs = (r: MutationRecord) =>
    !ours(r.target) && (r.type !== "childList" || [...r.addedNodes, ...r.removedNodes].some((n) => !(n instanceof Element && n.localName.startsWith("crumbs-"))));
  const observer = new MutationObserver((records) => {
    if (records.some(theirs)) changed = true;
  });
  observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  const leaving = () => {
    changed = true;
  };
  win.addEventListener("beforeunload", leaving);
  win.addEventListener("pagehide", leaving);
  const url = win.location.href;
  const value = "value" in el ? String((el as HTMLInputElement).value) : undefined;
  const checked = "checked" in el ? (el as HTMLInputElement).checked : undefined;
  return async () => {
    const deadline = Date.now() + EFFECT_WINDOW_MS;
    while (!changed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    observer.disconnect();
    win.removeEventListener("beforeunload", leaving);
    win.removeEventListener("pagehide", leaving);
    changed ||=
      win.location.href !== url ||
      ("value" in el && String((el as HTMLInputElement).value) !== value) ||
      ("checked" in el && (el as HTMLInputElement).checked !== checked);
    if (changed) return undefined;
    return {
      page_changed: false,
      note: `nothing on the page changed within ${EFFECT_WINDOW_MS} ms of the synthetic input; ${trustedInputHint(win.location.hostname)}`,
    };
  };
}
