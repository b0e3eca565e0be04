import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type TestStack } from "./stack.ts";

describe("HTTP details: Location, conditional reads, 405, RateLimit", () => {
  let s: TestStack;
  // 1 request per second, a burst of 3: small enough to run out of within one test.
  beforeAll(async () => {
    s = await startStack({ CRUMBS_RATE_LIMIT: "1:3" });
  });
  afterAll(() => s?.dispose());

  const note = (title: string) => ({ schema_name: "test.http.v1", title, tags: ["http"], context: { title } });

  it("a 201 names the new resource in Location, also when an Idempotency-Key replays it", async () => {
    const first = await s.call("/v1/breadcrumbs", { method: "POST", json: note("loc"), headers: { "idempotency-key": "loc-1" } });
    expect(first.status).toBe(201);
    const id = ((await first.json()) as { id: string }).id;
    expect(first.headers.get("location")).toBe(`/v1/breadcrumbs/${id}`);
    const again = await s.call("/v1/breadcrumbs", { method: "POST", json: note("loc"), headers: { "idempotency-key": "loc-1" } });
    expect([again.status, again.headers.get("idempotent-replayed"), again.headers.get("location")]).toEqual([201, "true", `/v1/breadcrumbs/${id}`]);
    expect((await s.call(first.headers.get("location")!)).status).toBe(200);
  });

  it("a read answers 304 to a current If-None-Match and 200 with the new ETag once it changed", async () => {
    const b = (await (await s.call("/v1/breadcrumbs", { method: "POST", json: note("etag") })).json()) as { id: string };
    const path = `/v1/breadcrumbs/${b.id}`;
    const first = await s.call(path);
    expect(first.headers.get("etag")).toBe('"1"');
    const notModified = await s.call(path, { headers: { "if-none-match": '"1"' } });
    expect([notModified.status, notModified.headers.get("etag"), await notModified.text()]).toEqual([304, '"1"', ""]);
    // Weak comparison, lists and `*`, as RFC 9110 asks for GET.
    expect((await s.call(path, { headers: { "if-none-match": 'W/"1"' } })).status).toBe(304);
    expect((await s.call(path, { headers: { "if-none-match": '"7", "1"' } })).status).toBe(304);
    expect((await s.call(path, { headers: { "if-none-match": "*" } })).status).toBe(304);

    const list = await s.call("/v1/breadcrumbs?tag=http");
    const listTag = list.headers.get("etag")!;
    expect(listTag).toMatch(/^W\/"/);
    expect((await s.call("/v1/breadcrumbs?tag=http", { headers: { "if-none-match": listTag } })).status).toBe(304);
    const view = await s.call(`${path}?view=llm`);
    expect((await s.call(`${path}?view=llm`, { headers: { "if-none-match": view.headers.get("etag")! } })).status).toBe(304);
    const history = await s.call(`${path}/history`);
    expect((await s.call(`${path}/history`, { headers: { "if-none-match": history.headers.get("etag")! } })).status).toBe(304);

    await s.call(path, { method: "PATCH", json: { title: "etag 2" }, headers: { "if-match": '"1"' } });
    const changed = await s.call(path, { headers: { "if-none-match": '"1"' } });
    expect([changed.status, changed.headers.get("etag")]).toEqual([200, '"2"']);
    expect((await s.call("/v1/breadcrumbs?tag=http", { headers: { "if-none-match": listTag } })).status).toBe(200);
    expect((await s.call(`${path}/history`, { headers: { "if-none-match": history.headers.get("etag")! } })).status).toBe(200);
  });

  it("a known path with a method it does not have is 405 with Allow, with or without a token; an unknown path is 404", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/v1/events", "GET, HEAD"],
      ["PUT", "/v1/breadcrumbs/6f1d8f8e-2d0c-4b8e-9a57-0c5f3f1f2a10", "DELETE, GET, HEAD, PATCH"],
      ["POST", "/v1/stats/schemas", "GET, HEAD"],
      ["POST", "/healthz", "GET, HEAD"],
      ["PATCH", "/v1/keys", "GET, HEAD, POST"],
    ];
    for (const [method, path, allow] of cases) {
      for (const token of [undefined, null]) {
        const res = await s.call(path, { method, token });
        expect([res.status, res.headers.get("allow")], `${method} ${path}`).toEqual([405, allow]);
        expect(await res.json()).toEqual({
          error: "method_not_allowed",
          message: `${method} is not allowed on ${path}; it allows ${allow}`,
          details: { allow: allow.split(", ") },
        });
      }
    }
    expect((await s.call("/v1/nothing-here", { method: "DELETE" })).status).toBe(404);
    expect((await s.call("/nothing-here", { token: null })).status).toBe(404);
    // A method the path has, on a spelling the router does not serve, is a 404, never "405, Allow: GET".
    expect((await s.call("/healthz/", { token: null })).status).toBe(404);
  });

  it("says where a token stands in RateLimit-* (draft-07) and answers 429 with Retry-After past the burst", async () => {
    const key = (await (await s.call("/v1/keys", { method: "POST", json: { scopes: ["read"] } })).json()) as { token: string };
    const seen: (string | null)[][] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await s.call("/v1/stats/schemas", { token: key.token });
      seen.push([String(last.status), last.headers.get("ratelimit-limit"), last.headers.get("ratelimit-remaining")]);
    }
    // Within one second at most one token comes back, so the fourth request finds none.
    expect(seen.slice(0, 3).map((r) => r[0])).toEqual(["200", "200", "200"]);
    expect(seen.slice(0, 3).every((r) => r[1] === "3")).toBe(true);
    expect(Number(seen[2]![2])).toBeLessThanOrEqual(1);
    expect(last!.status).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(last!.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    expect(await last!.json()).toMatchObject({ error: "rate_limited" });
  });
});
