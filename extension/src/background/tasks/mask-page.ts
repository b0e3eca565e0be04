// The mask overlay in the page ("Mask" in docs/extension.md): a translucent layer with "Agent is
// acting" that blocks the user's own clicks and keys while an agent works in the tab. It lets the
// agent's synthetic events through (they are not isTrusted), and its trusted ones (trusted-input mode:
// while the content script of this frame has a step in flight, the global named `trustedGlobal`,
// shared/trusted-input.ts), ignores the pointer itself
// (pointer-events: none, so hit tests see the page), and hides from the snapshot (aria-hidden host,
// closed shadow root).
// It never traps the user: Esc, or its Stop button, stops the agent's task (the worker's stop).

/** Runs in the page's isolated world: must not use anything from this module's scope. */
export function setMask(show: boolean, label: string, trustedGlobal: string) {
  type MaskState = { host: HTMLElement; block: (e: Event) => void };
  const g = globalThis as unknown as { __crumbsMask?: MaskState } & Record<string, unknown>;
  const events = ["pointerdown", "pointerup", "mousedown", "mouseup", "click", "dblclick", "contextmenu", "keydown", "keypress", "keyup", "touchstart"];
  if (!show) {
    const m = g.__crumbsMask;
    if (!m) return;
    for (const t of events) window.removeEventListener(t, m.block, true);
    m.host.remove();
    g.__crumbsMask = undefined;
    return;
  }
  if (g.__crumbsMask?.host.isConnected) return;
  const host = document.createElement("crumbs-mask");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText = "all: initial; position: fixed; inset: 0; z-index: 2147483647; pointer-events: none;";
  const root = host.attachShadow({ mode: "closed" });
  const layer = document.createElement("div");
  layer.style.cssText =
    "position: fixed; inset: 0; pointer-events: none; background: rgba(40, 60, 120, 0.12); box-shadow: inset 0 0 0 4px rgba(60, 90, 200, 0.7);";
  const badge = document.createElement("div");
  badge.textContent = label;
  badge.style.cssText =
    "position: fixed; top: 12px; left: 50%; transform: translateX(-50%); padding: 6px 8px 6px 14px; border-radius: 14px; background: #2b4bd1; color: #fff; font: 600 13px system-ui, sans-serif; pointer-events: none; display: flex; gap: 10px; align-items: center;";
  const stopButton = document.createElement("button");
  stopButton.textContent = "Stop (Esc)";
  stopButton.style.cssText = "all: initial; pointer-events: auto; cursor: pointer; padding: 2px 10px; border-radius: 10px; background: #fff; color: #a1141d; font: 600 12px system-ui, sans-serif;";
  badge.append(stopButton);
  layer.append(badge);
  const stop = () => void chrome.runtime.sendMessage({ kind: "crumbs:mask-stop" }).catch(() => {});
  root.append(layer);
  const block = (e: Event) => {
    if (!e.isTrusted || Number(g[trustedGlobal] ?? 0) > 0) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    // Only the user's own key or click (isTrusted): a page cannot stop or start anything here.
    if (e.type === "keydown" && (e as KeyboardEvent).key === "Escape") stop();
    if (e.type === "click" && e.target === host) stop();
  };
  for (const t of events) window.addEventListener(t, block, true);
  document.documentElement.append(host);
  g.__crumbsMask = { host, block };
}

export const MASK_LABEL = "Agent is acting";
export const MASK_STOP_MESSAGE = "crumbs:mask-stop";
