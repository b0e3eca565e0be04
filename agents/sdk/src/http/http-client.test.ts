import { describe, expect, it } from "vitest";
import { CrumbsError } from "@crumbs/schemas/api-errors";
import { freePort } from "@crumbs/testkit";
import * as z from "@crumbs/schemas/zod-mini";
import * as routes from "./routes.ts";
import { ApiResponseError, ApiTimeoutError, ApiUnreachableError, createHttpClient } from "./index.ts";

// The fetch client and the route table against a server made of a fetch handler (what Hono's
// app.request does): each test answers as the API does, with its JSON error shape built by the
// contract's CrumbsError, and reads back exactly what arrived.

interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** A fetch served by `answer`, recording each request as it arrived. */
function server(answer: (req: Request) => Response | Promise<Response> = () => Response.json({ ok: true })) {
  const seen: Seen[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    seen.push({ method: req.method, url: new URL(req.url), headers: req.headers, body: await req.clone().text() });
    return answer(req);
  };
  return { seen, fetch: fetchFn };
}

const errorAnswer = (err: CrumbsError) => Response.json(err.toJSON(), { status: err.status });

describe("routes sent by HttpClient: paths, methods and headers", () => {
  it("creates with the token, a JSON body and the Idempotency-Key", async () => {
    const s = server();
    await createHttpClient({ url: "http://api.test/", token: "t1", fetch: s.fetch }).send(routes.createBreadcrumb({ title: "a" }, { idempotencyKey: "k1" }));
    const [req] = s.seen;
    expect(req).toMatchObject({ method: "POST", body: '{"title":"a"}' });
    expect(req!.url.href).toBe("http://api.test/v1/breadcrumbs");
    expect(Object.fromEntries(req!.headers)).toMatchObject({ authorization: "Bearer t1", "content-type": "application/json", "idempotency-key": "k1" });
  });

  it("patches with If-Match as the quoted version, and a merge patch with its media type", async () => {
    const s = server();
    const http = createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch });
    await http.send(routes.patchBreadcrumb("a/b", { title: "x" }, { ifMatch: 3 }));
    await http.send(routes.patchBreadcrumb("a/b", { context: { k: null } }, { ifMatch: 4, merge: true }));
    await http.send(routes.deleteBreadcrumb("a/b", { ifMatch: 5 }));
    expect(s.seen.map((r) => [r.method, r.url.pathname, r.headers.get("if-match"), r.headers.get("content-type")])).toEqual([
      ["PATCH", "/v1/breadcrumbs/a%2Fb", '"3"', "application/json"],
      ["PATCH", "/v1/breadcrumbs/a%2Fb", '"4"', "application/merge-patch+json"],
      ["DELETE", "/v1/breadcrumbs/a%2Fb", '"5"', null],
    ]);
  });

  it("repeats array parameters, sends a selector as JSON and leaves undefined ones out", async () => {
    const s = server();
    await createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch }).send(
      routes.listBreadcrumbs({ tag: ["a", "b"], selector: { schema_name: "x.v1" }, limit: 5, cursor: undefined }),
    );
    const q = s.seen[0]!.url.searchParams;
    expect(q.getAll("tag")).toEqual(["a", "b"]);
    expect(JSON.parse(q.get("selector")!)).toEqual({ schema_name: "x.v1" });
    expect([q.get("limit"), q.has("cursor")]).toEqual(["5", false]);
  });

  it("asks the event stream with Accept and Last-Event-ID", async () => {
    const s = server();
    await createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch }).send(routes.eventStream({ after: 42 }), { stream: true });
    expect(s.seen[0]!.url.search).toBe("?after=42");
    expect([s.seen[0]!.headers.get("accept"), s.seen[0]!.headers.get("last-event-id")]).toEqual(["text/event-stream", "42"]);
  });

  it("reads a token function at each call, sends none without one, and takes '' as the page's origin", async () => {
    const s = server();
    let token: string | null = "first";
    const http = createHttpClient({ url: "http://api.test", token: () => token, fetch: s.fetch });
    await http.send(routes.schemaCounts());
    token = null;
    await http.send(routes.schemaCounts());
    expect(s.seen.map((r) => r.headers.get("authorization"))).toEqual(["Bearer first", null]);

    const urls: string[] = [];
    const relative = createHttpClient({ url: "", fetch: async (input) => (urls.push(String(input)), Response.json({})) });
    await relative.send(routes.getKey("k 1"));
    expect(urls).toEqual(["/v1/keys/k%201"]);
  });
});

describe("HttpClient: every failure one CrumbsError with code, status and retryable", () => {
  it("maps the API's JSON error shape to ApiResponseError, retryable only for 429 and 5xx", async () => {
    const answers = [
      new CrumbsError("version_mismatch", "stale", 412, { current_version: 7 }),
      new CrumbsError("not_found", "gone", 404),
      new CrumbsError("rate_limited", "slow down", 429),
      new CrumbsError("unavailable", "database down", 503),
    ];
    let i = 0;
    const s = server(() => errorAnswer(answers[i++]!));
    const http = createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch });
    const errs = [];
    for (const _ of answers) errs.push(await http.send(routes.getBreadcrumb("x")).catch((e: unknown) => e));
    for (const e of errs) expect(e).toBeInstanceOf(ApiResponseError);
    expect(errs.map((e) => ({ ...(e as ApiResponseError) }))).toMatchObject([
      { code: "version_mismatch", status: 412, retryable: false, details: { current_version: 7 } },
      { code: "not_found", status: 404, retryable: false },
      { code: "rate_limited", status: 429, retryable: true },
      { code: "unavailable", status: 503, retryable: true },
    ]);
  });

  it("names a gateway's HTML error by its status: unavailable, retryable", async () => {
    const s = server(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    const err = await createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch }).send(routes.schemaCounts()).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "unavailable", status: 502, retryable: true, message: "<html>Bad gateway</html>" });
  });

  it("is ApiUnreachableError, retryable, when nothing listens", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const err = await createHttpClient({ url, token: "t" }).send(routes.schemaCounts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiUnreachableError);
    expect(err).toMatchObject({ code: "api_unreachable", retryable: true, message: `cannot reach the crumbs API at ${url} (ECONNREFUSED)` });
  });

  it("is ApiTimeoutError, retryable, when no answer comes in time; a caller's abort rejects with its reason", async () => {
    // Answers never, rejecting as fetch does when its signal aborts.
    const hang: typeof fetch = (_, init) =>
      new Promise((_, reject) => init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason as Error), { once: true }));
    const http = createHttpClient({ url: "http://api.test", token: "t", fetch: hang, timeoutMs: 20 });
    const err = await http.send(routes.schemaCounts()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiTimeoutError);
    expect(err).toMatchObject({ code: "timeout", status: 504, retryable: true });

    const stop = new AbortController();
    const slow = createHttpClient({ url: "http://api.test", token: "t", fetch: hang });
    const call = slow.send(routes.schemaCounts(), { signal: stop.signal });
    stop.abort(new Error("user left"));
    await expect(call).rejects.toThrow("user left");
  });

  it("checks a JSON answer by its schema: not JSON or not the schema is invalid_response; 204 is undefined", async () => {
    const bodies = [Response.json({ items: [] }), new Response("<html>", { status: 200 }), Response.json({ items: 3 }), new Response(null, { status: 204 })];
    const s = server(() => bodies.shift()!);
    const http = createHttpClient({ url: "http://api.test", token: "t", fetch: s.fetch });
    const page = z.object({ items: z.array(z.string()) });
    expect(await http.json(routes.listKeys(), page)).toEqual({ items: [] });
    await expect(http.json(routes.listKeys(), page)).rejects.toMatchObject({ code: "invalid_response", retryable: false, message: /not JSON/ });
    await expect(http.json(routes.listKeys(), page)).rejects.toMatchObject({ code: "invalid_response", message: /unexpected response/ });
    expect(await http.json(routes.revokeKey("k"))).toBeUndefined();
  });
});
