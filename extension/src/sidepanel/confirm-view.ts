import type { InboxEntry } from "../shared/state/inbox.ts";
import { askWorker } from "../shared/panel-messages.ts";
import { el, timeOf } from "./dom.ts";

// Pending confirmations: high-risk actions wait here. Each says in words what will happen (the
// page's own assessment, while the element is highlighted there), and offers Approve, Deny, and
// Approve + "always allow this kind on this site" (listed and revoked in the options page).

const shown = new WeakMap<HTMLElement, string>();

export function renderConfirmations(root: HTMLElement, entries: InboxEntry[]): void {
  const waiting = entries.filter((e) => e.state === "awaiting_confirmation");
  root.hidden = waiting.length === 0;
  // Unchanged: keep the buttons the user may be about to click.
  const key = JSON.stringify(waiting.map((e) => [e.request_id, e.confirm, e.confirm_by]));
  if (shown.get(root) === key) return;
  shown.set(root, key);
  const decide = (e: InboxEntry, approve: boolean, grant = false) => async (ev: MouseEvent) => {
    const buttons = (ev.currentTarget as HTMLElement).parentElement?.querySelectorAll("button") ?? [];
    buttons.forEach((b) => (b.disabled = true));
    const res = await askWorker({ kind: "crumbs:decide", request_id: e.request_id, approve, grant });
    if (!res.ok) buttons.forEach((b) => (b.disabled = false));
  };
  root.replaceChildren(
    el("h2", {}, "Waiting for you"),
    ...waiting.map((e) =>
      el(
        "div",
        { class: "confirmation", data: { requestId: e.request_id, ...(e.confirm?.kind ? { kind: e.confirm.kind } : {}) } },
        el("div", { class: "who" }, `${e.agent ?? "An agent"} wants to (${e.action}):`),
        el("div", { class: "what" }, e.confirm?.sentence ?? `${e.action} (${e.title})`),
        el("pre", { class: "params" }, JSON.stringify(e.params, null, 1)),
        el("div", { class: "when" }, e.confirm_by ? `Answer by ${timeOf(e.confirm_by)}` : ""),
        el(
          "div",
          { class: "buttons" },
          el("button", { class: "approve", onclick: decide(e, true) }, "Approve"),
          el("button", { class: "deny", onclick: decide(e, false) }, "Deny"),
          e.confirm?.kind
            ? el("button", { class: "always", title: `Never ask again for this kind of action on ${e.confirm.site}`, onclick: decide(e, true, true) }, `Always allow on ${e.confirm.site}`)
            : null,
        ),
      ),
    ),
  );
}
