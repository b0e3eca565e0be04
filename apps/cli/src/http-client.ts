import { z } from "zod";
import { ApiResponseError } from "@crumbs/agent-sdk";
import type { ErrorDetails } from "@crumbs/schemas";
import { CliError } from "./errors.ts";
import type { ClientConfig } from "./client-config.ts";

const apiErrorBodySchema = z.object({ error: z.string(), message: z.string().optional(), details: z.unknown().optional() });

/** An array value is sent as the parameter repeated (`tag=a&tag=b`). */
export type Query = Record<string, string | number | readonly string[] | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpClient {
  readonly baseUrl: string;
  /** JSON in, JSON out; an error answer throws ApiResponseError. */
  json(method: string, path: string, opts?: RequestOptions): Promise<{ status: number; body: unknown; headers: Headers }>;
  /** The raw response of a successful request (for streams). */
  raw(method: string, path: string, opts?: RequestOptions): Promise<Response>;
}

/**
 * The CLI's transport: any route (keys, NATS credentials, the SSE stream as a raw response) and
 * bodies passed through as the API sent them, which the commands print unchanged. The SDK's
 * CrumbsHttp is the typed client for programs: it parses every answer into its schema and times
 * requests out, which a long `tail` cannot use.
 */
export function createHttpClient(config: ClientConfig, fetchImpl: typeof fetch = fetch): HttpClient {
  const urlFor = (path: string, query?: Query) => {
    const url = new URL(config.url + path);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const one of v as readonly string[]) url.searchParams.append(k, one);
      else url.searchParams.set(k, String(v));
    }
    return url;
  };

  async function raw(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const url = urlFor(path, opts.query);
    const headers: Record<string, string> = { authorization: `Bearer ${config.token}`, ...opts.headers };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.body);
    }
    let res: Response;
    try {
      res = await fetchImpl(url, { method, headers, body, signal: opts.signal });
    } catch (err) {
      if ((err as Error).name === "AbortError") throw err;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        "unreachable",
        `cannot reach the crumbs API at ${config.url} (${cause?.code ?? cause?.message ?? (err as Error).message}); is it running? (CRUMBS_URL)`,
      );
    }
    if (!res.ok) throw await toApiError(res);
    return res;
  }

  return {
    baseUrl: config.url,
    raw,
    async json(method, path, opts) {
      const res = await raw(method, path, opts);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

async function toApiError(res: Response): Promise<ApiResponseError> {
  const text = await res.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = apiErrorBodySchema.safeParse(parsed);
  if (body.success) {
    return new ApiResponseError(body.data.error, body.data.message ?? res.statusText, res.status, body.data.details as ErrorDetails | undefined);
  }
  return new ApiResponseError(`http_${res.status}`, text.slice(0, 200) || res.statusText, res.status);
}
