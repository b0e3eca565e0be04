import type { z } from "zod";
import { ApiResponseError, ApiTimeoutError, ApiUnreachableError } from "./errors.ts";

export interface HttpOptions {
  /** Base URL of the API, e.g. http://127.0.0.1:8081 */
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** Per-request timeout; the API answers in milliseconds, so a long wait means it is gone. */
  timeoutMs?: number;
}

/** An array value is sent as the parameter repeated (`tag=a&tag=b`); undefined values are left out. */
export type Query = Record<string, string | number | readonly string[] | undefined>;

export interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Query;
  signal?: AbortSignal | undefined;
  /**
   * A stream read for as long as the caller wants (`GET /v1/events/stream`): the timeout covers
   * only the wait for the answer's headers, not the body.
   */
  stream?: boolean;
}

/** Why a fetch failed: the network code of its cause (`ECONNREFUSED`), else the cause's message. */
function whyUnreachable(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * One request to the API: the bearer token, JSON bodies, query parameters, the timeout, and every
 * failure as one of the contract's client errors (ApiResponseError, ApiUnreachableError,
 * ApiTimeoutError); a call the caller aborted rejects with the signal's reason, as fetch does.
 */
export class Transport {
  readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly opts: HttpOptions) {
    this.baseUrl = opts.url.replace(/\/+$/, "");
    this.fetchFn = opts.fetch ?? globalThis.fetch;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  /** The answer of a successful request; an error answer throws ApiResponseError. */
  async send(method: string, route: string, opts: SendOptions = {}): Promise<Response> {
    opts.signal?.throwIfAborted();
    const url = new URL(this.baseUrl + route);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      for (const one of typeof v === "object" ? v : [v]) url.searchParams.append(k, String(one));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.token}`, ...opts.headers };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    // Like AbortSignal.timeout (an unref'd timer that also bounds reading the body), but a stream's
    // timer is stopped once its headers are in: the stream then lasts as long as the caller reads.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.timeoutMs);
    (timer as { unref?: () => void }).unref?.();
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal,
      });
    } catch (err) {
      clearTimeout(timer);
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (timeout.signal.aborted) throw new ApiTimeoutError(`${method} ${route}: no answer within ${this.timeoutMs} ms`);
      throw new ApiUnreachableError(`cannot reach the crumbs API at ${this.baseUrl} (${whyUnreachable(err)})`, { cause: err });
    }
    if (opts.stream) clearTimeout(timer);
    if (!res.ok) throw await ApiResponseError.fromResponse(res);
    return res;
  }

  /** JSON in, the answer parsed by `schema` out (undefined for 204 or no schema). */
  async request<T extends z.ZodType | undefined>(
    method: string,
    route: string,
    opts: SendOptions & { schema: T },
  ): Promise<T extends z.ZodType ? z.infer<T> : undefined> {
    const res = await this.send(method, route, opts);
    if (res.status === 204 || opts.schema === undefined) return undefined as never;
    const json: unknown = await res.json().catch(() => {
      throw new ApiResponseError("invalid_response", `${method} ${route}: the API answered something that is not JSON`, res.status);
    });
    const parsed = opts.schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiResponseError("invalid_response", `${method} ${route}: unexpected response: ${parsed.error.message}`, res.status);
    }
    return parsed.data as never;
  }
}
