import type { ActivityEntry } from "../shared/state/activity.ts";
import { el, timeOf } from "./dom.ts";

export function renderActivity(root: HTMLElement, entries: ActivityEntry[]): void {
  const items = entries
    .slice(-60)
    .reverse()
    .map((e) =>
      el(
        "li",
        { class: `activity kind-${e.kind}${e.ok === false ? " failed" : ""}`, data: { kind: e.kind } },
        el("time", {}, timeOf(e.at)),
        " ",
        e.text,
      ),
    );
  root.replaceChildren(...(items.length ? items : [el("li", { class: "empty" }, "Nothing yet.")]));
}
