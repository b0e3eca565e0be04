import type { Breadcrumb } from "@crumbs/schemas";
import { TASK_FINAL_STATUSES, TASK_SCHEMA, type TaskStatus } from "@crumbs/schemas/task-names";

export const SESSION_TAG = "session:";
export const EXTENSION_TAG = "extension:";

export type StepKind = "message" | "answer" | "action" | "other";

/** A version of a page context, as its history lists it. */
export interface PageVersion {
  id: string;
  version: number;
  updated_at: string;
  title: string;
}

export interface TimelineStep {
  kind: StepKind;
  at: string;
  breadcrumb: Breadcrumb;
  /** For an action: the browser.action.result.v1 that answers it, if any yet. */
  result?: Breadcrumb;
  /** The page context version current when this step was written (what the agent or user saw). */
  page?: PageVersion;
}

export function tagValue(b: Pick<Breadcrumb, "tags">, prefix: string): string | undefined {
  return b.tags.find((t) => t.startsWith(prefix))?.slice(prefix.length);
}

function kindOf(b: Breadcrumb): StepKind {
  if (b.schema_name === "chat.message.v1") return "message";
  if (b.schema_name === "agent.response.v1") return "answer";
  if (b.schema_name === "browser.action.v1") return "action";
  return "other";
}

/** The latest version written at or before `at`. `versions` may be in any order. */
export function versionAt(versions: PageVersion[], at: string): PageVersion | undefined {
  const t = Date.parse(at);
  let best: PageVersion | undefined;
  for (const v of versions) {
    const vt = Date.parse(v.updated_at);
    if (vt <= t && (!best || vt > Date.parse(best.updated_at) || (vt === Date.parse(best.updated_at) && v.version > best.version)))
      best = v;
  }
  return best;
}

/**
 * One chat session in time order. The runner tags what it writes for a session with
 * `session:<id>`; an action's result is joined to its action by `context.action_id` (the
 * extension also tags it with the session, other writers may not). The page version is derived from the page
 * context's history by time, per extension (`extension:<id>` tag), since no step records it.
 */
export function buildTimeline(
  sessionItems: Breadcrumb[],
  results: Breadcrumb[],
  pageVersions: Record<string, PageVersion[]>,
): TimelineStep[] {
  // The extension tags its results with the session too: they belong to their action, not beside it.
  const isResult = (b: Breadcrumb) => b.schema_name === "browser.action.result.v1";
  const resultFor = new Map<string, Breadcrumb>();
  for (const r of [...results, ...sessionItems.filter(isResult)]) {
    const actionId = (r.context as { action_id?: unknown }).action_id;
    if (typeof actionId === "string") resultFor.set(actionId, r);
  }
  // A task breadcrumb is the session's task card (latestTask), not a step of its own.
  const steps = sessionItems.filter((b) => !isResult(b) && b.schema_name !== TASK_SCHEMA).map((b): TimelineStep => {
    const step: TimelineStep = { kind: kindOf(b), at: b.created_at, breadcrumb: b };
    const result = resultFor.get(b.id);
    if (step.kind === "action" && result) step.result = result;
    const ext = tagValue(b, EXTENSION_TAG);
    const page = ext ? versionAt(pageVersions[ext] ?? [], b.created_at) : undefined;
    if (page) step.page = page;
    return step;
  });
  return steps.sort((a, b) => a.at.localeCompare(b.at) || a.breadcrumb.id.localeCompare(b.breadcrumb.id));
}

/** Session ids in the order of their newest breadcrumb, titled by their first user message. */
export function sessionsOf(items: Breadcrumb[]): { id: string; last: string; count: number; title: string }[] {
  const by = new Map<string, { id: string; last: string; count: number; title: string; first: string }>();
  for (const b of items) {
    const id = tagValue(b, SESSION_TAG);
    if (!id) continue;
    const s = by.get(id) ?? { id, last: b.updated_at, count: 0, title: "", first: "\uffff" };
    s.count++;
    if (b.updated_at > s.last) s.last = b.updated_at;
    if (b.schema_name === "chat.message.v1" && b.created_at < s.first) {
      s.first = b.created_at;
      s.title = b.title;
    }
    by.set(id, s);
  }
  return [...by.values()].sort((a, b) => b.last.localeCompare(a.last)).map(({ first: _, ...s }) => s);
}

/**
 * The session's task to show (browser.task.v1, the runner's living record of a task): the latest one still
 * going, else the one that ended last.
 */
export function latestTask(items: Breadcrumb[]): Breadcrumb | undefined {
  const tasks = items.filter((b) => b.schema_name === TASK_SCHEMA).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const going = tasks.find((t) => !TASK_FINAL_STATUSES.has((t.context as { status?: string }).status as TaskStatus));
  return going ?? tasks[0];
}
