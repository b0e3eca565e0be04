import { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "@crumbs/schemas/api-errors";
import * as z from "@crumbs/schemas/zod-mini";
import type { RouteCall } from "./routes.ts";

export interface HttpClientOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:8081; "" for the page's own origin (the dashboard). */
  url: string;
  /** The bearer token, or a function read at each call (a token the user may change); none sends no authorization. */
  token?: string | (() => string | null | undefined) | undefined;
  fetch?: typeof fetch | undefined;
  /** Per-request timeout; the API answers in milliseconds, so a long wait means it is gone. */
  timeoutMs?: number | undefined;
  /** The fetch cache mode (the dashboard's `no-store`, so a browser never answers from its cache). */
  cache?: RequestCache | undefined;
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /**
   * A stream read for as long as the caller wants (`GET /v1/events/stream`): the timeout covers
   * only the wait for the answer's headers, not the body.
   */
  stream?: boolean | undefined;
}

/** Why a fetch failed: the network code of its cause (`ECONNREFUSED`), else the cause's message, else its own. */
function whyUnreachable(err: unknown): string {
  const e = err as { cause?: { code?: unknown; message?: unknown }; message?: unknown } | undefined;
  return String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? err);
}

/** The URL of a RouteCall against the API's base URL. */
export function urlOf(base: string, call: RouteCall): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(call.query ?? {})) {
    if (v === undefined) continue;
    for (const one of typeof v === "object" ? v : [v]) params.append(k, String(one));
  }
  const query = params.toString();
  return `${base}${call.path}${query ? `?${query}` : ""}`;
}

/** Sends RouteCalls (routes.ts); made by createHttpClient. */
export interface HttpClient {
  /** The API's base URL, without a trailing slash ("" for the page's own origin). */
  readonly baseUrl: string;
  /** How long a request waits for the answer's headers. */
  readonly timeoutMs: number;
  /** The headers `send` sends for `call`: the bearer token read now, the JSON body's type, the call's own. */
  headersOf(call: RouteCall): Record<string, string>;
  /** The answer of a successful request; an error answer throws ApiResponseError. */
  send(call: RouteCall, opts?: SendOptions): Promise<Response>;
  /**
   * The answer's JSON, checked by `schema` (zod/mini or classic zod: they share zod's core); without
   * one, the JSON as it came. Undefined for a 204. An answer that is not JSON or not of the schema
   * is an ApiResponseError `invalid_response`.
   */
  json<T = unknown>(call: RouteCall, schema?: z.core.$ZodType<T>, opts?: SendOptions): Promise<T>;
}

/**
 * A client of the crumbs API with fetch alone (no NATS, no Node built-ins, so browsers bundle it):
 * the bearer token, JSON bodies, the timeout, and every failure as one of the contract's client
 * errors, each a CrumbsError with `retryable`: ApiResponseError for an error answer (the API's
 * `{error, message, details}`), ApiUnreachableError, ApiTimeoutError. A call the caller aborted
 * rejects with the signal's reason, as fetch does. A closure rather than a class: the extension
 * bundles it, and minified locals are shorter than properties.
 */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const baseUrl = opts.url.replace(/\/+$/, "");
  // Called through a wrapper: a browser's fetch throws "Illegal invocation" when called as a method.
  const fetchFn = opts.fetch ?? ((...a) => globalThis.fetch(...a));
  const timeoutMs = opts.timeoutMs ?? 30_000;

  function headersOf(call: RouteCall): Record<string, string> {
    const token = typeof opts.token === "function" ? opts.token() : opts.token;
    return {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(call.body === undefined ? {} : { "content-type": "application/json" }),
      ...call.headers,
    };
  }

  async function send(call: RouteCall, { signal, stream }: SendOptions = {}): Promise<Response> {
    signal?.throwIfAborted();
    const headers = headersOf(call);
    // Like AbortSignal.timeout (an unref'd timer that also bounds reading the body), but a stream's
    // timer is stopped once its headers are in: the stream then lasts as long as the caller reads.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    let res: Response;
    try {
      res = await fetchFn(urlOf(baseUrl, call), {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
        ...(opts.cache ? { cache: opts.cache } : {}),
      });
    } catch (err) {
      clearTimeout(timer);
      if (signal?.aborted) throw signal.reason;
      if (timeout.signal.aborted) throw new ApiTimeoutError(`${call.method} ${call.path}: no answer within ${timeoutMs} ms`);
      throw new ApiUnreachableError(`cannot reach the crumbs API at ${baseUrl || "this origin"} (${whyUnreachable(err)})`, { cause: err });
    }
    if (stream) clearTimeout(timer);
    if (!res.ok) throw await ApiResponseError.fromResponse(res);
    return res;
  }

  async function json<T>(call: RouteCall, schema?: z.core.$ZodType<T>, sendOpts?: SendOptions): Promise<T> {
    const res = await send(call, sendOpts);
    if (res.status === 204) return undefined as T;
    const invalid = (why: string) => new ApiResponseError("invalid_response", `${call.method} ${call.path}: ${why}`, res.status);
    const body: unknown = await res.json().catch(() => {
      throw invalid("the API answered something that is not JSON");
    });
    if (!schema) return body as T;
    const parsed = z.safeParse(schema, body);
    if (!parsed.success) throw invalid(`unexpected response: ${parsed.error.message}`);
    return parsed.data;
  }

  return { baseUrl, timeoutMs, headersOf, send, json };
}
