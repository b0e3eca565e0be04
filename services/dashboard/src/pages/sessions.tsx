import type { Breadcrumb } from "@crumbs/schemas";
import { useEffect } from "preact/hooks";
import { breadcrumbHistory, listBreadcrumbs } from "@crumbs/agent-sdk/http";
import { call, followEvents } from "../api.ts";
import { ErrorBox, Tags, Time, useLoad } from "../components/common.tsx";
import { href } from "../router.ts";
import { buildTimeline, EXTENSION_TAG, latestTask, sessionsOf, SESSION_TAG, tagValue, type PageVersion, type TimelineStep } from "../session-timeline.ts";

type Items = { items: Breadcrumb[] };

async function loadTimeline(session: string): Promise<{ steps: TimelineStep[]; task?: Breadcrumb }> {
  const items = (await call<Items>(listBreadcrumbs({ tag: [`${SESSION_TAG}${session}`], limit: 500 }))).items;
  const actionIds = items.filter((b) => b.schema_name === "browser.action.v1").map((b) => b.id);
  const results = actionIds.length
    ? (
        await call<Items>(
          listBreadcrumbs({
            selector: { schema_name: "browser.action.result.v1", context_match: [{ path: "$.action_id", op: "in", value: actionIds }] },
            limit: 500,
          }),
        )
      ).items
    : [];
  // Every version of each page context the session's browsers wrote, to place each step on it.
  const extensions = [...new Set(items.map((b) => tagValue(b, EXTENSION_TAG)).filter((e): e is string => !!e))];
  const pageVersions: Record<string, PageVersion[]> = {};
  await Promise.all(
    extensions.map(async (ext) => {
      const pages = (await call<Items>(listBreadcrumbs({ schema_name: "browser.page.context.v1", tag: [`${EXTENSION_TAG}${ext}`], limit: 10 }))).items;
      const versions = await Promise.all(pages.map((p) => call<{ items: PageVersion[] }>(breadcrumbHistory(p.id, { limit: 500 }))));
      pageVersions[ext] = versions.flatMap((v) => v.items);
    }),
  );
  const task = latestTask(items);
  return { steps: buildTimeline(items, results, pageVersions), ...(task ? { task } : {}) };
}

interface TaskView {
  goal?: string;
  subgoal?: string;
  status?: string;
  progress?: number;
  plan?: { id?: string; label?: string; status?: string }[];
  history?: unknown[];
  history_dropped?: number;
  model_calls?: number;
  message?: string;
}

/** The session's browser.task.v1 (the runner's living record of the task): goal, status, progress, plan. */
function TaskCard({ task }: { task: Breadcrumb }) {
  const t = task.context as TaskView;
  const progress = typeof t.progress === "number" ? t.progress : 0;
  const ran = (t.history?.length ?? 0) + (t.history_dropped ?? 0);
  return (
    <section class="panel task-card" aria-label="Task" data-status={t.status}>
      <div class="actions">
        <h2>Task: {t.goal}</h2>
        <a href={href("breadcrumbs", task.id)} class="muted">
          {task.schema_name} v{task.version}
        </a>
      </div>
      {t.subgoal && <p class="muted">now: {t.subgoal}</p>}
      <div class="task-progress">
        <progress max={1} value={progress} aria-label={`Progress ${Math.round(progress * 100)}%`} />{" "}
        <span>{Math.round(progress * 100)}%</span> <strong class={`task-status task-${t.status}`}>{t.status}</strong>
      </div>
      {!!t.plan?.length && (
        <ol class="task-plan" aria-label="Task steps">
          {t.plan.map((p) => (
            <li key={p.id} data-status={p.status}>
              <span class="muted">{p.status}</span> {p.label}
            </li>
          ))}
        </ol>
      )}
      <p class="muted small">
        {ran} step{ran === 1 ? "" : "s"} run, {t.model_calls ?? 0} model call{t.model_calls === 1 ? "" : "s"}
        {t.message ? ` — ${t.message}` : ""}
      </p>
    </section>
  );
}

const LABEL: Record<TimelineStep["kind"], string> = { message: "user", answer: "agent", action: "action", other: "other" };

function Step({ s }: { s: TimelineStep }) {
  const b = s.breadcrumb;
  const c = b.context as Record<string, unknown>;
  const r = s.result?.context as { status?: string; code?: string; message?: string; observation?: { url?: string; title?: string } } | undefined;
  return (
    <li class={`step step-${s.kind}`}>
      <div class="step-head">
        <span class={`who who-${s.kind}`}>{LABEL[s.kind]}</span> <Time at={s.at} />{" "}
        <a href={href("breadcrumbs", b.id)} class="muted">
          {b.schema_name} v{b.version}
        </a>
        {s.page && (
          <span class="page-seen">
            saw page{" "}
            <a href={href("breadcrumbs", s.page.id)}>
              “{s.page.title}” v{s.page.version}
            </a>
          </span>
        )}
      </div>
      {(s.kind === "message" || s.kind === "answer") && <p class="bubble">{String(c.content ?? b.title)}</p>}
      {s.kind === "action" && (
        <div class="bubble">
          <span class="mono">
            {String(c.action)} {JSON.stringify(c.params)}
          </span>
          {r ? (
            <div class={`result result-${r.status}`}>
              result: <strong>{r.status}</strong>
              {r.code ? ` ${r.code}` : ""} {r.message ?? ""}
              {r.observation && <span class="muted"> → {r.observation.title} ({r.observation.url})</span>}{" "}
              <a href={href("breadcrumbs", s.result!.id)}>details</a>
            </div>
          ) : (
            <div class="muted">no result yet</div>
          )}
        </div>
      )}
      {s.kind === "other" && (
        <p class="bubble">
          {b.title} <Tags tags={b.tags} />
        </p>
      )}
    </li>
  );
}

export function SessionsPage({ id }: { id?: string }) {
  const list = useLoad(async () => sessionsOf((await call<Items>(listBreadcrumbs({ schema_name: "chat.message.v1", limit: 500 }))).items), []);
  const timeline = useLoad(async (): Promise<{ steps: TimelineStep[]; task?: Breadcrumb }> => (id ? loadTimeline(id) : { steps: [] }), [id]);
  // Live: a write in this session, or any action result (results carry no session tag), reloads it.
  useEffect(() => {
    if (!id) return;
    const ctl = new AbortController();
    let pending: ReturnType<typeof setTimeout> | undefined;
    const selector = { any_tags: [`${SESSION_TAG}${id}`, "browser:action-result"] };
    void followEvents({ selector, signal: ctl.signal }, () => {
      clearTimeout(pending);
      pending = setTimeout(timeline.reload, 200);
    }).catch(() => {});
    return () => (ctl.abort(), clearTimeout(pending));
  }, [id]);
  return (
    <div class="split">
      <aside class="panel counts" aria-labelledby="sessions-h">
        <h2 id="sessions-h">Sessions</h2>
        <ErrorBox error={list.error} />
        <ul>
          {list.data?.map((s) => (
            <li key={s.id}>
              <a href={href("sessions", s.id)} aria-current={s.id === id ? "page" : undefined}>
                {s.id}{" "}
                <span class="count" title="user messages">
                  {s.count}
                </span>
                <div class="muted small">{s.title}</div>
              </a>
            </li>
          ))}
          {list.data && !list.data.length && <li class="muted">no chat messages yet</li>}
        </ul>
      </aside>
      <div class="grow">
        {!id && <p class="muted">Pick a session.</p>}
        {id && (
          <section class="panel" aria-labelledby="timeline-h">
            <div class="actions">
              <h1 id="timeline-h">Session {id}</h1>
              <button type="button" class="ghost" onClick={timeline.reload}>
                Refresh
              </button>
            </div>
            <ErrorBox error={timeline.error} />
            {timeline.data?.task && <TaskCard task={timeline.data.task} />}
            <ol class="session" aria-label="Session timeline">
              {timeline.data?.steps.map((s) => (
                <Step key={s.breadcrumb.id} s={s} />
              ))}
            </ol>
          </section>
        )}
      </div>
    </div>
  );
}
