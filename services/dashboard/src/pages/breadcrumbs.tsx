import type { Breadcrumb } from "@crumbs/schemas";
import { useEffect, useMemo, useState } from "preact/hooks";
import { listBreadcrumbs, schemaCounts } from "@crumbs/agent-sdk/http";
import { call, typedSelector } from "../api.ts";
import { ErrorBox, Tags, Time, useLoad } from "../components/common.tsx";
import { href } from "../router.ts";
import { selectorError } from "../selector-input.ts";

interface Page {
  items: Breadcrumb[];
  next_cursor: string | null;
}

export interface Filters {
  schema: string;
  tags: string;
  selector: string;
  title: string;
  limit: string;
}

const filtersFrom = (q: URLSearchParams): Filters => ({
  schema: q.get("schema") ?? "",
  tags: q.get("tags") ?? "",
  selector: q.get("selector") ?? "",
  title: q.get("title") ?? "",
  limit: q.get("limit") ?? "50",
});

/** Rows rendered in the first frame; the rest follow in chunks, one per frame. */
const FIRST_ROWS = 60;
const CHUNK_ROWS = 250;

/**
 * How many of `total` rows to render now. A long page paints its first screen at once and
 * fills in below it over the next frames, instead of blocking on thousands of DOM nodes.
 */
function useProgressive(total: number, reset: string): number {
  const [shown, setShown] = useState(FIRST_ROWS);
  useEffect(() => setShown(FIRST_ROWS), [reset]);
  useEffect(() => {
    if (shown >= total) return;
    const frame = requestAnimationFrame(() => setShown((n) => Math.min(total, n + CHUNK_ROWS)));
    return () => cancelAnimationFrame(frame);
  }, [shown, total]);
  return Math.min(shown, total);
}

export function BreadcrumbsPage({ query }: { query: URLSearchParams }) {
  const applied = filtersFrom(query);
  const [form, setForm] = useState<Filters>(applied);
  const [pages, setPages] = useState<Page[]>([]);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(false);
  const counts = useLoad(() => call<{ items: { schema_name: string; count: number }[] }>(schemaCounts()), []);
  const key = query.toString();
  useEffect(() => setForm(applied), [key]);

  const load = async (cursor?: string) => {
    setLoading(true);
    setError(undefined);
    try {
      const tags = applied.tags.split(",").map((t) => t.trim()).filter(Boolean);
      const page = await call<Page>(
        listBreadcrumbs({
          schema_name: applied.schema || undefined,
          tag: tags,
          selector: typedSelector(applied.selector),
          title: applied.title.trim() || undefined,
          limit: Number(applied.limit) || undefined,
          cursor,
        }),
      );
      setPages((p) => (cursor ? [...p, page] : [page]));
    } catch (err) {
      setError(err);
      if (!cursor) setPages([]);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(), [key]);

  const rows = useMemo(() => pages.flatMap((p) => p.items), [pages]);
  const shown = useProgressive(rows.length, key);
  const next = pages.at(-1)?.next_cursor ?? null;
  const selErr = selectorError(form.selector);

  const submit = (e: Event) => {
    e.preventDefault();
    if (selErr) return;
    location.hash = href("breadcrumbs", undefined, { ...form, limit: form.limit === "50" ? undefined : form.limit });
  };
  const set = (k: keyof Filters) => (e: Event) => setForm({ ...form, [k]: (e.currentTarget as HTMLInputElement).value });

  return (
    <div class="split">
      <aside class="panel counts" aria-labelledby="counts-h">
        <h2 id="counts-h">Schemas</h2>
        <ErrorBox error={counts.error} />
        <ul>
          <li>
            <a href={href("breadcrumbs")} aria-current={!applied.schema ? "true" : undefined}>
              all <span class="count">{counts.data?.items.reduce((n, s) => n + s.count, 0) ?? ""}</span>
            </a>
          </li>
          {counts.data?.items.map((s) => (
            <li key={s.schema_name}>
              <a href={href("breadcrumbs", undefined, { schema: s.schema_name })} aria-current={applied.schema === s.schema_name ? "true" : undefined}>
                {s.schema_name} <span class="count">{s.count}</span>
              </a>
            </li>
          ))}
        </ul>
      </aside>
      <div class="grow">
        <form class="panel filters" onSubmit={submit} aria-label="Filters">
          <label>
            Schema <input name="schema" value={form.schema} onInput={set("schema")} placeholder="chat.message.v1" />
          </label>
          <label>
            Tags (all of) <input name="tags" value={form.tags} onInput={set("tags")} placeholder="session:s1, user:message" />
          </label>
          <label>
            Title contains <input name="title" value={form.title} onInput={set("title")} />
          </label>
          <label>
            Per page
            <select name="limit" value={form.limit} onChange={set("limit")}>
              {["50", "100", "500"].map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
          <label class="wide">
            Selector (JSON)
            <textarea name="selector" rows={2} value={form.selector} onInput={set("selector")} placeholder='{"context_match":[{"path":"$.url","op":"contains","value":"example"}]}' aria-invalid={selErr ? "true" : undefined} />
          </label>
          {selErr && <p class="error">{selErr}</p>}
          <div class="actions">
            <button type="submit">Apply</button>
            <a class="button ghost" href={href("breadcrumbs")}>
              Clear
            </a>
            <button type="button" class="ghost" onClick={() => (counts.reload(), void load())}>
              Refresh
            </button>
          </div>
        </form>
        <ErrorBox error={error} />
        <table class="list fixed" aria-label="Breadcrumbs" aria-busy={loading ? "true" : undefined}>
          <thead>
            <tr>
              <th scope="col" class="col-title">Title</th>
              <th scope="col" class="col-schema">Schema</th>
              <th scope="col" class="col-tags">Tags</th>
              <th scope="col" class="col-v num">v</th>
              <th scope="col" class="col-at">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((b) => (
              <tr key={b.id}>
                <td>
                  <a href={href("breadcrumbs", b.id)}>{b.title || b.id}</a>
                </td>
                <td class="mono">{b.schema_name}</td>
                <td>
                  <Tags tags={b.tags} />
                </td>
                <td class="num">{b.version}</td>
                <td>
                  <Time at={b.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p class="muted" aria-live="polite">
          {loading ? "Loading…" : `${rows.length} shown${next ? "" : ", end of list"}`}
        </p>
        {next && (
          <button type="button" onClick={() => void load(next)} disabled={loading}>
            Load more
          </button>
        )}
      </div>
    </div>
  );
}
