import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiResponseError } from "../api.ts";

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiResponseError ? `${error.code}: ${error.message}` : String(error);
  return (
    <p class="error" role="alert">
      {text}
    </p>
  );
}

// One formatter for every row: toLocaleString builds a new Intl formatter per call, which
// dominated rendering a long list.
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" });

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">never</span>;
  return (
    <time dateTime={at} title={at}>
      {timeFormat.format(new Date(at))}
    </time>
  );
}

export function Tags({ tags }: { tags: string[] }) {
  return (
    <span class="tags">
      {tags.map((t) => (
        <span key={t} class="tag">
          {t}
        </span>
      ))}
    </span>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Calls `fn` every `ms` while the component is mounted and the tab is visible. */
export function useInterval(fn: () => void, ms: number) {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const t = setInterval(() => document.visibilityState === "visible" && ref.current(), ms);
    return () => clearInterval(t);
  }, [ms]);
}

/** Loads `fn()` when `deps` change; `reload` runs it again. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}
