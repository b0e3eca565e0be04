import { useEffect, useState } from "preact/hooks";

/** A parsed `#/page/arg?query`: hash routing, so the API serves one static index.html. */
export interface Route {
  page: string;
  arg?: string;
  query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, "");
  const [path = "", q = ""] = raw.split("?", 2);
  const [page = "", ...rest] = path.split("/");
  const arg = rest.length ? decodeURIComponent(rest.join("/")) : undefined;
  return { page: page || "breadcrumbs", ...(arg ? { arg } : {}), query: new URLSearchParams(q) };
}

export function href(page: string, arg?: string, query?: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v) q.set(k, v);
  const qs = q.toString();
  return `#/${page}${arg ? `/${encodeURIComponent(arg)}` : ""}${qs ? `?${qs}` : ""}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    addEventListener("hashchange", on);
    return () => removeEventListener("hashchange", on);
  }, []);
  return route;
}
