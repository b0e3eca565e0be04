import * as z from "@crumbs/schemas/zod-mini";
import { cancels, isCancelledBy } from "../../shared/state/control.ts";
import { inbox } from "../../shared/state/inbox.ts";
import { MASK_LABEL, setMask } from "./mask-page.ts";
import { stored } from "../../shared/state/store.ts";
import { TRUSTED_INPUT_GLOBAL } from "../../shared/trusted-input.ts";
import { scopes } from "./tab-scope.ts";

// When the mask shows ("Mask" in docs/extension.md): an agent has work for the tab, the tab is the
// active one and its window has focus. Evaluated again on every change of the queue, tab
// activation, focus change and page load (a reload drops the overlay).

const masked = stored("crumbs.masked", z.array(z.number().check(z.int())), () => []);
const LINGER_MS = 1_500;
let lingerTimer: ReturnType<typeof setTimeout> | undefined;

async function busyTabs(): Promise<Set<number>> {
  const [entries, all, stopped] = await Promise.all([inbox.get(), scopes.get(), cancels.get()]);
  const busy = new Set<number>();
  for (const e of entries) {
    if (e.state !== "queued" && e.state !== "running") continue;
    // A stopped task gives the page back at once, even while its last action finishes.
    if (isCancelledBy(stopped, e)) continue;
    const tab = e.tab_id ?? all[e.session]?.current;
    if (tab !== undefined) busy.add(tab);
  }
  return busy;
}

async function visibleTabs(): Promise<Set<number>> {
  const windows = await chrome.windows.getAll({ populate: true });
  // Headless browsers report no focused window at all: treat every window as focused then.
  const anyFocused = windows.some((w) => w.focused);
  const out = new Set<number>();
  for (const w of windows) {
    if (anyFocused && !w.focused) continue;
    const active = w.tabs?.find((t) => t.active);
    if (active?.id !== undefined) out.add(active.id);
  }
  return out;
}

async function apply(tabId: number, show: boolean): Promise<void> {
  await chrome.scripting
    .executeScript({ target: { tabId, frameIds: [0] }, func: setMask, args: [show, MASK_LABEL, TRUSTED_INPUT_GLOBAL] })
    .catch(() => {});
}

let chain: Promise<void> = Promise.resolve();

/**
 * Shows the mask where the rule above says so and hides it everywhere else it was shown. Calls
 * run one after another: an older call working from an older queue must not show the mask again
 * after a newer one (a stop) hid it.
 */
export function syncMask(opts: { linger?: boolean } = {}): Promise<void> {
  const next = chain.catch(() => {}).then(() => syncOnce(opts));
  chain = next;
  return next;
}

async function syncOnce(opts: { linger?: boolean }): Promise<void> {
  const [busy, visible, shown] = await Promise.all([busyTabs(), visibleTabs(), masked.get()]);
  const want = [...busy].filter((t) => visible.has(t));
  const drop = shown.filter((t) => !want.includes(t));
  if (drop.length && opts.linger !== false && want.length === 0) {
    // Between two steps of one task the queue is empty for a moment: wait before hiding.
    clearTimeout(lingerTimer);
    lingerTimer = setTimeout(() => void syncMask({ linger: false }), LINGER_MS);
    return;
  }
  clearTimeout(lingerTimer);
  await Promise.all([...want.map((t) => apply(t, true)), ...drop.map((t) => apply(t, false))]);
  await masked.set(want);
}

/** Whether a tab shows the mask now (for tests and the side panel). */
export async function maskedTabs(): Promise<number[]> {
  return masked.get();
}
