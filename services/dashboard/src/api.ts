import type { BreadcrumbEvent } from "@crumbs/schemas";
import { SseParser } from "@crumbs/schemas/sse";

const TOKEN_KEY = "crumbs.token";

/** The token lives in this tab's sessionStorage only: gone with the tab, never in a URL. */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** The API's error shape `{error, message, details?}` with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Called on a 401 so the app can return to the login form. */
let onUnauthorized: () => void = () => {};
export const setUnauthorizedHandler = (fn: () => void) => (onUnauthorized = fn);

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const t = token.get();
  return { ...(t ? { authorization: `Bearer ${t}` } : {}), ...extra };
}

/**
 * Any authenticated read answers 401 only for a token the API does not know: a breadcrumb nobody
 * has is 404 (403 without the read scope) for every valid token, and costs one index look-up.
 */
const CONFIRM_PATH = "/v1/breadcrumbs/00000000-0000-0000-0000-000000000000";

/**
 * A 401 logs out only when a second request with the same token is refused too: one 401 can be
 * an answer gone wrong (a statement that failed under another request's load once made a valid
 * key read as unknown), and logging out on it throws away the token the user typed.
 */
async function confirmedUnauthorized(): Promise<boolean> {
  const res = await fetch(CONFIRM_PATH, { headers: headers(), cache: "no-store" }).catch(() => undefined);
  await res?.body?.cancel().catch(() => {});
  return res?.status === 401;
}

async function fail(res: Response): Promise<never> {
  const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string; details?: unknown };
  if (res.status === 401 && (await confirmedUnauthorized())) onUnauthorized();
  throw new ApiError(res.status, body.error ?? "http_error", body.message ?? `HTTP ${res.status}`, body.details);
}

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ data: T; etag: string | null }> {
  const res = await fetch(path, {
    method: init.method ?? "GET",
    headers: headers({ ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers }),
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    cache: "no-store",
  });
  if (!res.ok) await fail(res);
  const data = res.status === 204 ? (undefined as T) : ((await res.json()) as T);
  return { data, etag: res.headers.get("etag") };
}

export const get = async <T>(path: string) => (await api<T>(path)).data;

/** `/v1/...?a=1&tag=x&tag=y`: arrays repeat the parameter, empty values are left out. */
export function withQuery(path: string, q: Record<string, string | number | string[] | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else if (v !== undefined && v !== "") p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Follows `/v1/events/stream` until `signal` aborts, reconnecting after a drop from the last
 * seq seen (Last-Event-ID), so no event is missed or repeated across reconnects.
 */
export async function followEvents(
  opts: { selector?: string; signal: AbortSignal },
  onEvent: (e: BreadcrumbEvent) => void,
  onState: (s: "live" | "reconnecting") => void = () => {},
): Promise<void> {
  let lastId: string | undefined;
  while (!opts.signal.aborted) {
    try {
      const res = await fetch(withQuery("/v1/events/stream", { selector: opts.selector }), {
        headers: headers({ accept: "text/event-stream", ...(lastId ? { "last-event-id": lastId } : {}) }),
        signal: opts.signal,
        cache: "no-store",
      });
      if (!res.ok || !res.body) await fail(res);
      onState("live");
      const parser = new SseParser();
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const m of parser.push(value)) onEvent(JSON.parse(m.data) as BreadcrumbEvent);
        lastId = parser.lastEventId ?? lastId;
      }
    } catch (err) {
      if (opts.signal.aborted) return;
      // A refused request (bad selector, lost scope) will not get better by retrying.
      if (err instanceof ApiError && err.status < 500) throw err;
    }
    if (opts.signal.aborted) return;
    onState("reconnecting");
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
