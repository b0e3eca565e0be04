import * as z from "@crumbs/schemas/zod-mini";
import { PLAN_STEP_STATUSES, TASK_FINAL_STATUSES, TASK_SCHEMA, TASK_STATUSES, type TaskStatus } from "@crumbs/schemas/task-names";
import { httpClient, listWith, type Breadcrumb } from "../shared/api-client.ts";
import type { Config } from "../shared/state/config.ts";
import { el } from "./dom.ts";
import { followSse } from "./sse.ts";

// The task view: the current browser.task.v1 of the chat's session (the runner's task controller keeps it
// current, one breadcrumb per task, a new version at each change): its goal, status, a progress bar and the
// plan's steps, live from the API's event stream (history first for a panel opened mid-task). The panel
// reads only what it shows; the full schema (and the page capability view it builds on) stays out of the
// panel's bundle (test/bundles.test.ts).

const planStepView = z.looseObject({ id: z.string(), label: z.string(), status: z.enum(PLAN_STEP_STATUSES) });
const taskView = z.looseObject({
  task_id: z.string(),
  goal: z.string(),
  subgoal: z.optional(z.string()),
  status: z.enum(TASK_STATUSES),
  progress: z.number().check(z.gte(0), z.lte(1)),
  plan: z._default(z.array(planStepView), []),
  history: z._default(z.array(z.unknown()), []),
  history_dropped: z.optional(z.number()),
  model_calls: z.optional(z.number()),
  message: z.optional(z.string()),
  updated_at: z.string(),
});
type TaskView = z.infer<typeof taskView>;

const STATUS_WORDS: Record<TaskStatus, string> = {
  created: "Starting",
  planning: "Planning",
  exploring: "Exploring the site",
  executing: "Working",
  awaiting_user: "Waiting for you",
  blocked: "Blocked",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Stopped",
};
const STEP_MARKS: Record<(typeof PLAN_STEP_STATUSES)[number], string> = { pending: "○", running: "▶", done: "✓", failed: "✗", skipped: "–" };

const eventSchema = z.object({ type: z.string(), breadcrumb: z.looseObject({ id: z.string(), version: z.number(), context: z.unknown() }) });

export class TaskProgressView {
  /** Every task of the session seen so far, by breadcrumb id: the newest version of each. */
  private readonly known = new Map<string, { version: number; task: TaskView }>();
  private abort: AbortController | undefined;

  constructor(private readonly root: HTMLElement) {}

  async start(config: Config, session: string): Promise<void> {
    this.abort?.abort();
    this.abort = new AbortController();
    this.known.clear();
    this.render();
    const selector = { schema_name: [TASK_SCHEMA], all_tags: [`session:${session}`] };
    // Live first, then history once the stream has started: whatever is written in between arrives by one or the other.
    const { signal } = this.abort;
    await followSse({
      apiUrl: config.apiUrl,
      token: config.token,
      selector,
      signal,
      onFrame: (f) => {
        const parsed = eventSchema.safeParse(JSON.parse(f.data));
        if (parsed.success && parsed.data.type !== "breadcrumb.deleted") this.add(parsed.data.breadcrumb);
      },
    });
    if (signal.aborted) return;
    const history = await listWith(httpClient(config), { selector, limit: 20 }).catch(() => [] as Breadcrumb[]);
    for (const b of history) this.add(b);
  }

  private add(b: { id: string; version: number; context: unknown }): void {
    const seen = this.known.get(b.id);
    if (seen && seen.version >= b.version) return;
    const parsed = taskView.safeParse(b.context);
    if (!parsed.success) return;
    this.known.set(b.id, { version: b.version, task: parsed.data });
    this.render();
  }

  /** The task to show: the latest one still going, else the one that ended last. */
  private current(): TaskView | undefined {
    const all = [...this.known.values()].map((k) => k.task).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    return all.find((t) => !TASK_FINAL_STATUSES.has(t.status)) ?? all[0];
  }

  private render(): void {
    const t = this.current();
    this.root.hidden = !t;
    if (!t) {
      this.root.replaceChildren();
      return;
    }
    const pct = Math.round(t.progress * 100);
    const bar = el("progress", { class: "bar" });
    bar.max = 1;
    bar.value = t.progress;
    bar.setAttribute("aria-label", `Progress ${pct}%`);
    const ran = t.history.length + (t.history_dropped ?? 0);
    const parts: Array<Node | null> = [
      el("h2", {}, "Task"),
      el("div", { class: "goal" }, t.goal),
      t.subgoal ? el("div", { class: "subgoal" }, `now: ${t.subgoal}`) : null,
      el(
        "div",
        { class: "progress-row" },
        bar,
        el("span", { class: "pct" }, `${pct}%`),
        el("span", { class: "task-status", data: { status: t.status } }, STATUS_WORDS[t.status]),
      ),
      t.plan.length
        ? el(
            "ol",
            { class: "steps" },
            ...t.plan.map((s) => el("li", { class: `step ${s.status}`, data: { status: s.status, step: s.id } }, `${STEP_MARKS[s.status]} ${s.label}`)),
          )
        : null,
      el("div", { class: "counts" }, `${ran} step${ran === 1 ? "" : "s"} run${t.model_calls ? `, ${t.model_calls} model call${t.model_calls === 1 ? "" : "s"}` : ""}`),
      t.message ? el("div", { class: "task-message" }, t.message) : null,
    ];
    this.root.replaceChildren(...parts.filter((p): p is Node => p !== null));
    this.root.dataset.task = t.task_id;
    this.root.dataset.status = t.status;
  }

  stop(): void {
    this.abort?.abort();
  }
}
