import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type TestStack } from "./stack.ts";

/**
 * Every bad input answers the JSON error with the right status and stores
 * nothing: each case counts breadcrumbs and history rows before and after. (Not the
 * outbox: the relay empties it as it publishes, and an outbox row cannot exist
 * without the history row it references.)
 */
describe("bad input", () => {
  let s: TestStack;
  let id: string;

  beforeAll(async () => {
    s = await startStack();
    const res = await s.call("/v1/breadcrumbs", {
      method: "POST",
      json: { schema_name: "test.note.v1", title: "target", context: { a: 1 } },
    });
    id = (await res.json()).id;
  });
  afterAll(() => s?.dispose());

  const deep = "[".repeat(10_000) + "]".repeat(10_000);
  const deepObject = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
  const big = JSON.stringify({ schema_name: "test.note.v1", title: "big", context: { blob: "x".repeat(2 * 1024 * 1024) } });
  const valid = { schema_name: "test.note.v1", title: "ok", context: {} };
  const hostileTemplate = { summary: { type: "template", template: "{{constructor.constructor 'return process'}}" } };
  const scriptPath = { x: { type: "extract", value: "$..[?(@.constructor)]" } };

  type Case = [name: string, method: string, path: () => string, body: string | undefined, status: number, code: string, headers?: Record<string, string>];
  const cases: Case[] = [
    ["POST not JSON", "POST", () => "/v1/breadcrumbs", "{nope", 400, "invalid_json"],
    ["POST empty body", "POST", () => "/v1/breadcrumbs", "", 400, "invalid_json"],
    ["POST wrong types", "POST", () => "/v1/breadcrumbs", JSON.stringify({ schema_name: 5, title: [], context: "x" }), 400, "invalid_request"],
    ["POST array body", "POST", () => "/v1/breadcrumbs", "[]", 400, "invalid_request"],
    ["POST unknown field", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, extra: 1 }), 400, "invalid_request"],
    ["POST bad schema_name", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, schema_name: "no version" }), 400, "invalid_request"],
    ["POST 2 MiB body", "POST", () => "/v1/breadcrumbs", big, 413, "payload_too_large"],
    ["POST 10,000-deep arrays", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, context: { d: "@" } }).replace('"@"', deep), 400, "invalid_request"],
    ["POST 10,000-deep objects", "POST", () => "/v1/breadcrumbs", deepObject, 400, "invalid_request"],
    ["POST known schema, bad context", "POST", () => "/v1/breadcrumbs", JSON.stringify({ schema_name: "browser.action.v1", title: "a", context: { action: "teleport" } }), 422, "schema_validation_failed"],
    ["POST interest lease without a holder label", "POST", () => "/v1/breadcrumbs", JSON.stringify({ schema_name: "browser.context.interest.v1", title: "lease", context: { holder: { id: "sdk:1" } }, ttl_seconds: 60 }), 422, "schema_validation_failed"],
    ["POST template using constructor", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, llm_hints: { transform: hostileTemplate } }), 422, "invalid_llm_hints"],
    ["POST context hints using constructor", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, context: { llm_hints: { transform: hostileTemplate } } }), 422, "invalid_llm_hints"],
    ["POST JSONPath filter with script", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, llm_hints: { transform: scriptPath } }), 422, "invalid_llm_hints"],
    ["POST unknown rule type", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, llm_hints: { transform: { x: { type: "eval", code: "1" } } } }), 422, "invalid_llm_hints"],
    ["POST NUL in a string", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, context: { s: "a\u0000b" } }), 400, "invalid_request"],
    ["POST bad Idempotency-Key", "POST", () => "/v1/breadcrumbs", JSON.stringify(valid), 400, "invalid_request", { "idempotency-key": "has space" }],
    ["POST negative ttl", "POST", () => "/v1/breadcrumbs", JSON.stringify({ ...valid, ttl_seconds: -5 }), 400, "invalid_request"],
    ["PATCH not JSON", "PATCH", () => `/v1/breadcrumbs/${id}`, "nope", 400, "invalid_json", { "if-match": '"1"' }],
    ["PATCH wrong types", "PATCH", () => `/v1/breadcrumbs/${id}`, JSON.stringify({ tags: "x" }), 400, "invalid_request", { "if-match": '"1"' }],
    ["PATCH empty object", "PATCH", () => `/v1/breadcrumbs/${id}`, "{}", 400, "invalid_request", { "if-match": '"1"' }],
    ["PATCH 2 MiB body", "PATCH", () => `/v1/breadcrumbs/${id}`, big, 413, "payload_too_large", { "if-match": '"1"' }],
    ["PATCH 10,000-deep", "PATCH", () => `/v1/breadcrumbs/${id}`, `{"context":{"d":${deep}}}`, 400, "invalid_request", { "if-match": '"1"' }],
    ["PATCH template using constructor", "PATCH", () => `/v1/breadcrumbs/${id}`, JSON.stringify({ llm_hints: { transform: hostileTemplate } }), 422, "invalid_llm_hints", { "if-match": '"1"' }],
    ["PATCH context hints with script path", "PATCH", () => `/v1/breadcrumbs/${id}`, JSON.stringify({ context: { llm_hints: { transform: scriptPath } } }), 422, "invalid_llm_hints", { "if-match": '"1"' }],
    ["PATCH bad If-Match", "PATCH", () => `/v1/breadcrumbs/${id}`, JSON.stringify({ title: "x" }), 400, "invalid_request", { "if-match": "banana" }],
    ["PATCH unknown id", "PATCH", () => "/v1/breadcrumbs/00000000-0000-4000-8000-000000000000", JSON.stringify({ title: "x" }), 404, "not_found", { "if-match": '"1"' }],
    ["PATCH non-uuid id", "PATCH", () => "/v1/breadcrumbs/not-a-uuid", JSON.stringify({ title: "x" }), 404, "not_found", { "if-match": '"1"' }],
    ["DELETE bad If-Match", "DELETE", () => `/v1/breadcrumbs/${id}`, undefined, 400, "invalid_request", { "if-match": "W/x" }],
    ["GET non-uuid id", "GET", () => "/v1/breadcrumbs/%27%3B%20drop%20table", undefined, 404, "not_found"],
    ["GET unknown view", "GET", () => `/v1/breadcrumbs/${id}?view=html`, undefined, 400, "invalid_request"],
    ["LIST limit too big", "GET", () => "/v1/breadcrumbs?limit=501", undefined, 400, "invalid_request"],
    ["LIST limit not a number", "GET", () => "/v1/breadcrumbs?limit=ten", undefined, 400, "invalid_request"],
    ["LIST forged cursor", "GET", () => "/v1/breadcrumbs?cursor=Zm9v", undefined, 400, "invalid_request"],
    ["LIST selector not JSON", "GET", () => "/v1/breadcrumbs?selector=%7Bnope", undefined, 422, "invalid_selector"],
    ["LIST unknown selector op", "GET", () => `/v1/breadcrumbs?selector=${enc({ context_match: [{ path: "$.a", op: "like", value: 1 }] })}`, undefined, 422, "invalid_selector"],
    ["LIST selector with script path", "GET", () => `/v1/breadcrumbs?selector=${enc({ context_match: [{ path: "$..[?(@.constructor)]", op: "exists" }] })}`, undefined, 422, "invalid_selector"],
    ["LIST selector bad regex", "GET", () => `/v1/breadcrumbs?selector=${enc({ context_match: [{ path: "$.a", op: "matches", value: "(" }] })}`, undefined, 422, "invalid_selector"],
    ["HISTORY bad limit", "GET", () => `/v1/breadcrumbs/${id}/history?limit=0`, undefined, 400, "invalid_request"],
    ["HISTORY unknown id", "GET", () => "/v1/breadcrumbs/00000000-0000-4000-8000-000000000000/history", undefined, 404, "not_found"],
    ["EVENTS bad after", "GET", () => "/v1/events?after=-1", undefined, 400, "invalid_request"],
    ["EVENTS bad since", "GET", () => "/v1/events?since=yesterday", undefined, 400, "invalid_request"],
    ["EVENTS unknown selector op", "GET", () => `/v1/events?selector=${enc({ context_match: [{ path: "$.a", op: "near" }] })}`, undefined, 422, "invalid_selector"],
    ["STREAM unknown selector op", "GET", () => `/v1/events/stream?selector=${enc({ context_match: [{ path: "$.a", op: "near" }] })}`, undefined, 422, "invalid_selector"],
    ["STREAM bad Last-Event-ID", "GET", () => "/v1/events/stream", undefined, 400, "invalid_request", { "last-event-id": "abc" }],
    ["unknown route", "GET", () => "/v1/nothing", undefined, 404, "not_found"],
  ];

  it.each(cases)("%s -> %i %s", async (_name, method, path, body, status, code, headers) => {
    const before = await counts();
    const res = await s.call(path(), {
      method,
      body,
      headers: { "content-type": "application/json", ...headers },
    });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const json = await res.json();
    expect(json.error).toBe(code);
    expect(typeof json.message).toBe("string");
    expect(await counts()).toEqual(before);
  });

  // Every numeric input has a documented range (services/api/README.md "Ranges"); outside it the
  // answer is 400 naming the field, never a 500, and nothing is written.
  type RangeCase = [name: string, method: string, path: string, body: unknown, field: string];
  const rangeCases: RangeCase[] = [
    ["ttl_seconds 8.9e15", "POST", "/v1/breadcrumbs", { ...valid, ttl_seconds: 8.9e15 }, "ttl_seconds"],
    ["ttl_seconds over 10 years", "POST", "/v1/breadcrumbs", { ...valid, ttl_seconds: 315_360_001 }, "ttl_seconds"],
    ["ttl_seconds 1e400 (Infinity in JSON)", "POST", "/v1/breadcrumbs", '{"schema_name":"test.note.v1","title":"ok","context":{},"ttl_seconds":1e400}', "ttl_seconds"],
    ["ttl_seconds fractional", "POST", "/v1/breadcrumbs", { ...valid, ttl_seconds: 1.5 }, "ttl_seconds"],
    ["ttl_seconds zero", "POST", "/v1/breadcrumbs", { ...valid, ttl_seconds: 0 }, "ttl_seconds"],
    ["expires_in 999999999w", "POST", "/v1/keys", { scopes: ["read"], owner: "ranges", expires_in: "999999999w" }, "expires_in"],
    ["expires_in 3651d", "POST", "/v1/keys", { scopes: ["read"], owner: "ranges", expires_in: "3651d" }, "expires_in"],
    ["expires_in huge number", "POST", "/v1/keys", { scopes: ["read"], owner: "ranges", expires_in: 8.9e15 }, "expires_in"],
    ["expires_in negative number", "POST", "/v1/keys", { scopes: ["read"], owner: "ranges", expires_in: -1 }, "expires_in"],
    ["expires_in 40 digits", "POST", "/v1/keys", { scopes: ["read"], owner: "ranges", expires_in: "9".repeat(40) }, "expires_in"],
    ["nats ttl_seconds too big", "POST", "/v1/nats/credentials", { ttl_seconds: 8.9e15 }, "ttl_seconds"],
    ["nats ttl_seconds too small", "POST", "/v1/nats/credentials", { ttl_seconds: 59 }, "ttl_seconds"],
    ["outbox retry seq 0", "POST", "/v1/outbox/retry", { seq: 0 }, "seq"],
    ["LIST limit 1e400", "GET", "/v1/breadcrumbs?limit=1e400", undefined, "limit"],
    ["LIST limit 0", "GET", "/v1/breadcrumbs?limit=0", undefined, "limit"],
    ["LIST limit 1.5", "GET", "/v1/breadcrumbs?limit=1.5", undefined, "limit"],
    ["HISTORY limit 501", "GET", "/v1/breadcrumbs/{id}/history?limit=501", undefined, "limit"],
    ["EVENTS limit 1001", "GET", "/v1/events?limit=1001", undefined, "limit"],
    ["EVENTS after 2^60", "GET", `/v1/events?after=${2 ** 60}`, undefined, "after"],
    ["EVENTS after 1.5", "GET", "/v1/events?after=1.5", undefined, "after"],
    ["STREAM after -1", "GET", "/v1/events/stream?after=-1", undefined, "after"],
    ["OUTBOX parked limit 1001", "GET", "/v1/outbox/parked?limit=1001", undefined, "limit"],
    ["OUTBOX parked after -1", "GET", "/v1/outbox/parked?after=-1", undefined, "after"],
  ];

  it.each(rangeCases)("out of range: %s -> 400 naming %s", async (_name, method, path, body, field) => {
    const before = { ...(await counts()), keys: await s.count("api_keys"), idempotency: await s.count("idempotency_keys") };
    const res = await s.call(path.replace("{id}", id), {
      method,
      ...(body === undefined ? {} : typeof body === "string" ? { body, headers: { "content-type": "application/json" } } : { json: body }),
    });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.error).toBe("invalid_request");
    expect(json.message).toContain(field);
    expect({ ...(await counts()), keys: await s.count("api_keys"), idempotency: await s.count("idempotency_keys") }).toEqual(before);
  });

  it("a view that cannot render answers 422 and never the raw context", async () => {
    // Hints valid when written but failing at read time are the schemas package's concern; the
    // API's part is to fail closed. A stored breadcrumb with hints the engine rejects shows it.
    await s.database.db.execute(
      (await import("drizzle-orm")).sql`update breadcrumbs set llm_hints = '{"transform":{"x":{"type":"eval"}}}'::jsonb where id = ${id}`,
    );
    const res = await s.call(`/v1/breadcrumbs/${id}?view=llm`);
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).not.toContain('"a":1');
  });

  const counts = async () => ({
    breadcrumbs: await s.count("breadcrumbs"),
    history: await s.count("breadcrumb_history"),
  });
});

function enc(v: unknown) {
  return encodeURIComponent(JSON.stringify(v));
}
