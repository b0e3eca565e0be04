import type { AgentDefContext, Breadcrumb } from "@crumbs/schemas";
import { useState } from "preact/hooks";
import { agentConsumers, getBreadcrumb, listBreadcrumbs, patchBreadcrumb } from "@crumbs/agent-sdk/http";
import { call } from "../api.ts";
import { ErrorBox, Time, useInterval, useLoad } from "../components/common.tsx";
import { href } from "../router.ts";
import { SESSION_TAG, tagValue } from "../session-timeline.ts";

interface ConsumerState {
  name: string;
  filter_subject: string | null;
  num_pending: number;
  num_ack_pending: number;
  num_redelivered: number;
  last_active: string | null;
}

/** Error answers the runner writes instead of crashing (model down, refused tool calls). */
const ERROR_ANSWER = /^The model call failed|I could not act:|returned an empty answer/;

/** What went wrong last: an error answer, or an action the browser reported as failed. */
function lastError(outputs: Breadcrumb[], results: Breadcrumb[]): { at: string; text: string } | undefined {
  const answers = outputs
    .filter((b) => b.schema_name === "agent.response.v1" && ERROR_ANSWER.test(String(b.context.content ?? "")))
    .map((b) => ({ at: b.created_at, text: String(b.context.content) }));
  const failed = results
    .filter((r) => r.context.status === "error")
    .map((r) => ({ at: r.created_at, text: `${String(r.context.code)}: ${String(r.context.message ?? r.title)}` }));
  return [...answers, ...failed].sort((a, b) => b.at.localeCompare(a.at))[0];
}

/** The breadcrumb that started an output's task. */
function triggerOf(b: Breadcrumb): { id: string; version: number } | undefined {
  const c = b.context as { in_reply_to?: { id: string; version: number }; task?: { root?: { id: string; version: number } } };
  return c.in_reply_to ?? c.task?.root;
}

function AgentCard({ def, onSaved }: { def: Breadcrumb; onSaved: () => void }) {
  const ctx = def.context as AgentDefContext;
  const agentId = ctx.agent_id;
  const consumers = useLoad(() => call<{ items: ConsumerState[] }>(agentConsumers(agentId)), [agentId, def.version]);
  const outputs = useLoad(async () => {
    // Outputs carry `agent:<id>`; a definition may carry the same tag, so only answers and actions count.
    const out = (
      await call<{ items: Breadcrumb[] }>(listBreadcrumbs({ tag: [`agent:${agentId}`], selector: { schema_name: ["agent.response.v1", "browser.action.v1"] }, limit: 20 }))
    ).items;
    const actionIds = out.filter((b) => b.schema_name === "browser.action.v1").map((b) => b.id);
    const results = actionIds.length
      ? (
          await call<{ items: Breadcrumb[] }>(
            listBreadcrumbs({
              selector: { schema_name: "browser.action.result.v1", context_match: [{ path: "$.action_id", op: "in", value: actionIds }] },
              limit: 50,
            }),
          )
        ).items
      : [];
    // The newest trigger by title; gone (deleted, expired) it is still named by its id.
    const trigger = out.map(triggerOf).find(Boolean);
    const triggerTitle = trigger ? await call<Breadcrumb>(getBreadcrumb(trigger.id)).then((b) => b.title, () => undefined) : undefined;
    return { out, results, trigger, triggerTitle };
  }, [agentId]);
  // The counts move while the runner works: keep them current without a click.
  useInterval(consumers.reload, 3_000);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [saveError, setSaveError] = useState<unknown>();

  const save = async (e: Event) => {
    e.preventDefault();
    setSaveError(undefined);
    try {
      const context = JSON.parse(text) as unknown;
      // If-Match: a definition changed by someone else meanwhile is refused (412), not overwritten.
      await call(patchBreadcrumb(def.id, { context }, { ifMatch: def.version }));
      setEditing(false);
      onSaved();
    } catch (err) {
      setSaveError(err);
    }
  };

  const out = outputs.data?.out ?? [];
  const trigger = outputs.data?.trigger;
  const error = outputs.data && lastError(out, outputs.data.results);
  const sessions = [...new Set(out.map((b) => tagValue(b, SESSION_TAG)).filter((s): s is string => !!s))];
  const pending = consumers.data?.items.reduce((n, c) => n + c.num_pending, 0);
  const ackPending = consumers.data?.items.reduce((n, c) => n + c.num_ack_pending, 0);

  return (
    <section class="panel agent" aria-labelledby={`agent-${def.id}`} data-agent={agentId}>
      <h2 id={`agent-${def.id}`}>
        {agentId} <span class="muted">v{def.version}</span>
      </h2>
      <dl class="meta">
        <dt>model</dt>
        <dd class="mono">{ctx.model}</dd>
        <dt>subscriptions</dt>
        <dd class="mono">{ctx.subscriptions.selectors.map((s) => JSON.stringify(s)).join("  ")}</dd>
        <dt>tools</dt>
        <dd class="mono">{(ctx.tools ?? []).join(", ") || "none"}</dd>
        <dt>consumer</dt>
        <dd>
          <ErrorBox error={consumers.error} />
          {consumers.data && !consumers.data.items.length && <span class="muted">no consumer: no runner has picked this agent up</span>}
          {consumers.data?.items.map((c) => (
            <div key={c.name} class="mono">
              {c.name} <span class="muted">{c.filter_subject}</span>
            </div>
          ))}
        </dd>
        <dt>pending</dt>
        <dd data-testid="pending">{pending ?? "…"}</dd>
        <dt>ack pending</dt>
        <dd data-testid="ack-pending">{ackPending ?? "…"}</dd>
        <dt>last delivery</dt>
        <dd>
          <Time at={consumers.data?.items.map((c) => c.last_active).filter(Boolean).sort().at(-1)} />
        </dd>
        <dt>last trigger</dt>
        <dd>{trigger ? <a href={href("breadcrumbs", trigger.id)}>
              {outputs.data?.triggerTitle ?? trigger.id} v{trigger.version}
            </a> : <span class="muted">none yet</span>}</dd>
        <dt>last error</dt>
        <dd>
          {error ? (
            <span class="error-text">
              <Time at={error.at} /> {error.text}
            </span>
          ) : (
            <span class="muted">none</span>
          )}
        </dd>
        <dt>sessions</dt>
        <dd>
          {sessions.length ? (
            sessions.map((s) => (
              <a key={s} class="tag" href={href("sessions", s)}>
                {s}
              </a>
            ))
          ) : (
            <span class="muted">none</span>
          )}
        </dd>
      </dl>
      <h3>Recent answers and actions</h3>
      <ErrorBox error={outputs.error} />
      <ul class="outputs">
        {out.map((b) => (
          <li key={b.id}>
            <span class="ev">{b.schema_name === "browser.action.v1" ? "action" : "answer"}</span> <a href={href("breadcrumbs", b.id)}>{b.title}</a> <Time at={b.created_at} />
          </li>
        ))}
        {outputs.data && !out.length && <li class="muted">nothing yet</li>}
      </ul>
      <div class="actions">
        <a class="button ghost" href={href("breadcrumbs", def.id)}>
          Definition history
        </a>
        {!editing && (
          <button type="button" onClick={() => (setText(JSON.stringify(def.context, null, 2)), setEditing(true))}>
            Edit definition
          </button>
        )}
      </div>
      {editing && (
        <form onSubmit={save} onKeyDown={(e) => e.key === "Escape" && setEditing(false)}>
          <label for={`edit-${def.id}`}>Context of v{def.version} (saved with If-Match: "{def.version}")</label>
          <textarea id={`edit-${def.id}`} class="mono" rows={14} value={text} onInput={(e) => setText(e.currentTarget.value)} autoFocus />
          <ErrorBox error={saveError} />
          <div class="actions">
            <button type="submit">Save</button>
            <button type="button" class="ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export function AgentsPage({ id }: { id?: string }) {
  const defs = useLoad(() => call<{ items: Breadcrumb[] }>(listBreadcrumbs({ schema_name: "agent.def.v1", limit: 100 })), []);
  const items = (defs.data?.items ?? []).filter((d) => !id || (d.context as AgentDefContext).agent_id === id);
  return (
    <div>
      <div class="actions">
        <h1>Agents</h1>
        <button type="button" class="ghost" onClick={defs.reload}>
          Refresh
        </button>
      </div>
      <ErrorBox error={defs.error} />
      {defs.data && !items.length && <p class="muted">No agent.def.v1 breadcrumbs. See docs/agents.md to define one.</p>}
      {items.map((d) => (
        <AgentCard key={`${d.id}:${d.version}`} def={d} onSaved={defs.reload} />
      ))}
    </div>
  );
}
