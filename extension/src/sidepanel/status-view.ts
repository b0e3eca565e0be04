import type { BusStatus } from "../shared/state/status.ts";
import { interestLine } from "../shared/state/interest.ts";
import { el } from "./dom.ts";

const LABEL: Record<string, string> = {
  connected: "connected",
  connecting: "connecting…",
  disconnected: "disconnected",
  not_configured: "not configured",
  error: "error",
};

/** `listeners`: the labels of the live interest leases; none means capture is paused. */
export function renderStatus(root: HTMLElement, s: BusStatus, listeners: readonly string[]): void {
  const part = (name: string, p: BusStatus["nats"]) =>
    el(
      "div",
      { class: `status-row state-${p?.state ?? "unknown"}`, data: { part: name, state: p?.state ?? "unknown" } },
      el("strong", {}, `${name}: `),
      LABEL[p?.state ?? ""] ?? "unknown",
      p?.detail ? el("span", { class: "detail" }, ` — ${p.detail}`) : null,
    );
  const c = s.context;
  root.replaceChildren(
    part("NATS", s.nats),
    part("API", s.api),
    el(
      "div",
      { class: "status-row", data: { part: "context" } },
      el("strong", {}, "Page context: "),
      c?.id ? `v${c.version} ${c.url ?? ""}` : "none yet",
      c?.error ? el("span", { class: "detail error" }, ` — ${c.error}`) : null,
    ),
    el(
      "div",
      { class: "status-row", data: { part: "interest", state: listeners.length ? "shared" : "paused" } },
      el("strong", {}, "Page context: "),
      interestLine(listeners),
    ),
  );
}
