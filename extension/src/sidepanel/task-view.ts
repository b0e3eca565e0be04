import type { TaskView } from "../shared/state/control.ts";
import type { InboxEntry } from "../shared/state/inbox.ts";
import { askWorker } from "../shared/panel-messages.ts";
import { el } from "./dom.ts";

// The running task of each session: agent, step n of its maximum, last action, and Stop. A task
// shows until its last answer comes (state done, from the agent's `final` answer), and while it
// has actions waiting or ran one in the last half minute: the latter only covers an end the worker
// missed (NATS down when the answer came). A stopped one says so until it ages out.

const RECENT_MS = 30_000;
const rendered = new WeakMap<HTMLElement, string>();

export function renderTasks(root: HTMLElement, views: Record<string, TaskView>, entries: InboxEntry[], now = Date.now()): void {
  const busy = new Set(entries.filter((e) => e.state !== "done").map((e) => e.session));
  const shown = Object.values(views).filter((v) => v.state !== "done" && (busy.has(v.session) || now - Date.parse(v.updated_at) < RECENT_MS));
  root.hidden = shown.length === 0;
  const key = JSON.stringify(shown.map((v) => [v.session, v.state, v.step, v.max_steps, v.last_action, v.agent]));
  if (rendered.get(root) === key) return;
  rendered.set(root, key);
  const stop = (session: string) => async (ev: MouseEvent) => {
    const button = ev.currentTarget as HTMLButtonElement;
    button.disabled = true;
    const res = await askWorker({ kind: "crumbs:stop", session });
    if (!res.ok) button.disabled = false;
  };
  root.replaceChildren(
    el("h2", {}, "Agent at work"),
    ...shown.map((v) =>
      el(
        "div",
        { class: `task state-${v.state}`, data: { session: v.session, state: v.state } },
        el("div", { class: "agent" }, `${v.agent ?? "agent"}${v.step ? ` — step ${v.step}${v.max_steps ? ` of ${v.max_steps}` : ""}` : ""}`),
        el("div", { class: "last" }, v.last_action ? `last: ${v.last_action}` : ""),
        v.state === "running" ? el("button", { class: "stop", onclick: stop(v.session) }, "Stop") : el("div", { class: "stopped" }, "Stopped"),
      ),
    ),
  );
}
