import type { Breadcrumb } from "@crumbs/schemas";
import { useEffect, useState } from "preact/hooks";
import { breadcrumbHistory, getBreadcrumb } from "@crumbs/agent-sdk/http";
import { ApiResponseError, call, followEvents } from "../api.ts";
import { ErrorBox, Tags, Time, useLoad } from "../components/common.tsx";
import { DiffView } from "../components/diff-view.tsx";
import { JsonTree } from "../components/json-tree.tsx";
import { href } from "../router.ts";
import { tagValue, SESSION_TAG } from "../session-timeline.ts";

type Version = Breadcrumb & { seq: number; event: string };

/** What a version diff compares: everything a writer can change. */
const comparable = (b: Breadcrumb) => ({ title: b.title, tags: b.tags, context: b.context, llm_hints: b.llm_hints });

export function BreadcrumbPage({ id }: { id: string }) {
  const [tick, setTick] = useState(0);
  const [live, setLive] = useState<string>("connecting");
  const crumb = useLoad(() => call<Breadcrumb>(getBreadcrumb(id)), [id, tick]);
  const view = useLoad(() => call<unknown>(getBreadcrumb(id, { view: "llm" })), [id, tick]);
  const history = useLoad(
    async () => (await call<{ items: Version[] }>(breadcrumbHistory(id, { limit: 500 }))).items.sort((a, b) => a.seq - b.seq),
    [id, tick],
  );
  const [pick, setPick] = useState<{ from?: number; to?: number }>({});
  const schema = crumb.data?.schema_name;

  // Live: reload whenever this breadcrumb gets a new event. The stream is narrowed to its schema.
  useEffect(() => {
    if (!schema) return;
    const ctl = new AbortController();
    void followEvents({ selector: { schema_name: schema }, signal: ctl.signal }, (e) => e.id === id && setTick((t) => t + 1), setLive).catch(
      () => setLive("off"),
    );
    return () => ctl.abort();
  }, [id, schema]);

  const versions = history.data ?? [];
  const to = versions.find((v) => v.seq === pick.to) ?? versions.at(-1);
  const from = versions.find((v) => v.seq === pick.from) ?? versions.at(-2);
  const deleted = crumb.error instanceof ApiResponseError && crumb.error.status === 404;
  const b = crumb.data;
  const session = b && tagValue(b, SESSION_TAG);

  return (
    <article>
      <p>
        <a href={href("breadcrumbs")}>← Breadcrumbs</a>
      </p>
      <header class="crumb-head">
        <h1>{b?.title ?? (deleted ? "Deleted or expired" : "…")}</h1>
        <span class={`live ${live}`} aria-live="polite">
          {live === "live" ? "● live" : live}
        </span>
      </header>
      {!deleted && <ErrorBox error={crumb.error} />}
      {b && (
        <dl class="meta">
          <dt>id</dt>
          <dd class="mono">{b.id}</dd>
          <dt>schema</dt>
          <dd class="mono">
            <a href={href("breadcrumbs", undefined, { schema: b.schema_name })}>{b.schema_name}</a>
          </dd>
          <dt>version</dt>
          <dd data-testid="version">{b.version}</dd>
          {b.key && (
            <>
              <dt>key</dt>
              <dd class="mono">{b.key}</dd>
            </>
          )}
          <dt>tags</dt>
          <dd>
            <Tags tags={b.tags} />
          </dd>
          <dt>updated</dt>
          <dd>
            <Time at={b.updated_at} /> by {b.updated_by}
          </dd>
          {session && (
            <>
              <dt>session</dt>
              <dd>
                <a href={href("sessions", session)}>{session}</a>
              </dd>
            </>
          )}
        </dl>
      )}
      {b && (
        <div class="two">
          <section class="panel" aria-labelledby="ctx-h">
            <h2 id="ctx-h">Context</h2>
            <div class="json">
              <JsonTree value={b.context} />
            </div>
          </section>
          <section class="panel" aria-labelledby="llm-h">
            <h2 id="llm-h">LLM view</h2>
            <ErrorBox error={view.error} />
            {view.data !== undefined && <pre class="json">{JSON.stringify(view.data, null, 2)}</pre>}
          </section>
        </div>
      )}
      <section class="panel" aria-labelledby="hist-h">
        <h2 id="hist-h">History</h2>
        <ErrorBox error={history.error} />
        <p class="muted">Pick two versions to compare (“from” and “to”).</p>
        <ol class="timeline" aria-label="Versions">
          {versions.map((v) => (
            <li key={v.seq}>
              <span class={`ev ev-${v.event}`}>{v.event}</span> <strong>v{v.version}</strong> <Time at={v.updated_at} /> <span class="muted">by {v.updated_by}</span>{" "}
              <span class="mono muted">{v.title}</span>
              <span class="pick">
                <label>
                  <input type="radio" name="from" checked={from?.seq === v.seq} onChange={() => setPick({ ...pick, from: v.seq })} /> from
                </label>
                <label>
                  <input type="radio" name="to" checked={to?.seq === v.seq} onChange={() => setPick({ ...pick, to: v.seq })} /> to
                </label>
              </span>
            </li>
          ))}
        </ol>
        {from && to && from.seq !== to.seq ? (
          <>
            <h3>
              v{from.version} → v{to.version}
            </h3>
            <DiffView label={`Changes from v${from.version} to v${to.version}`} before={comparable(from)} after={comparable(to)} />
          </>
        ) : (
          versions.length > 0 && <p class="muted">One version only, or the same picked twice: nothing to compare.</p>
        )}
      </section>
    </article>
  );
}
