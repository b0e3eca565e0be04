import { ApiResponseError, createHttpClient, eventStream, getBreadcrumb, type RouteCall } from "@crumbs/agent-sdk/http";
import type { BreadcrumbEvent } from "@crumbs/schemas";
import { SseParser } from "@crumbs/schemas/sse";

export { ApiResponseError };

const TOKEN_KEY = "crumbs.token";

/** The token lives in this tab's sessionStorage only: gone with the tab, never in a URL. */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (t: string) => sessionStorage.setItem(TOKEN_KEY, t),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** Called on a 401 so the app can return to the login form. */
let onUnauthorized: () => void = () => {};
export const setUnauthorizedHandler = (fn: () => void) => (onUnauthorized = fn);

/**
 * The API on this page's own origin, through the SDK's fetch-only client (its route table and
 * errors: an error answer is an ApiResponseError with code, status and details). `no-store`: a
 * browser never answers a read from its cache.
 */
const http = createHttpClient({ url: "", token: () => token.get(), cache: "no-store" });

/**
 * Any authenticated read answers 401 only for a token the API does not know: a breadcrumb nobody
 * has is 404 (403 without the read scope) for every valid token, and costs one index look-up.
 */
const CONFIRM_ID = "00000000-0000-0000-0000-000000000000";

/**
 * A 401 logs out only when a second request with the same token is refused too: one 401 can be
 * an answer gone wrong (a statement that failed under another request's load once made a valid
 * key read as unknown), and logging out on it throws away the token the user typed.
 */
async function confirmedUnauthorized(): Promise<boolean> {
  const res = await http.send(getBreadcrumb(CONFIRM_ID)).catch((e: unknown) => e);
  if (res instanceof Response) await res.body?.cancel().catch(() => {});
  return res instanceof ApiResponseError && res.status === 401;
}

/** Any failure as it is; a 401 the API confirms logs out first. */
async function failed(err: unknown): Promise<never> {
  if (err instanceof ApiResponseError && err.status === 401 && (await confirmedUnauthorized())) onUnauthorized();
  throw err;
}

/** One call of the route table (`@crumbs/agent-sdk/http`); its JSON answer, undefined for a 204. */
export const call = <T>(route: RouteCall): Promise<T> => http.json<T>(route).catch(failed);

/** A selector as the user typed it (JSON text; the form checks it first), empty for none. */
export const typedSelector = (text: string): unknown => (text.trim() ? JSON.parse(text) : undefined);

/**
 * Follows `/v1/events/stream` until `signal` aborts, reconnecting after a drop from the last
 * seq seen (Last-Event-ID), so no event is missed or repeated across reconnects.
 */
export async function followEvents(
  opts: { selector?: unknown; signal: AbortSignal },
  onEvent: (e: BreadcrumbEvent) => void,
  onState: (s: "live" | "reconnecting") => void = () => {},
): Promise<void> {
  let lastId: string | undefined;
  while (!opts.signal.aborted) {
    try {
      const res = await http.send(eventStream({ selector: opts.selector, after: lastId }), { signal: opts.signal, stream: true }).catch(failed);
      if (!res.body) throw new Error("the event stream answered without a body");
      onState("live");
      const parser = new SseParser();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const m of parser.push(value)) onEvent(JSON.parse(m.data) as BreadcrumbEvent);
        lastId = parser.lastEventId ?? lastId;
      }
    } catch (err) {
      if (opts.signal.aborted) return;
      // A refused request (bad selector, lost scope) will not get better by retrying.
      if (err instanceof ApiResponseError && !err.retryable) throw err;
    }
    if (opts.signal.aborted) return;
    onState("reconnecting");
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
