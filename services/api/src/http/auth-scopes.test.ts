import { describe, expect, it } from "vitest";
import type { Database } from "../db/database.ts";
import { createApp } from "./app.ts";
import type { Principal } from "./auth.ts";
import { SCOPES } from "./auth-scopes.ts";
import { silentLogger } from "@crumbs/telemetry";

/** What every route needs, written out: a new route fails this test until someone decides its scope here. */
const EXPECTED: Record<string, string> = {
  "GET /v1/breadcrumbs": "read",
  "GET /v1/breadcrumbs/{id}": "read",
  "GET /v1/breadcrumbs/{id}/history": "read",
  "POST /v1/breadcrumbs": "write",
  "PATCH /v1/breadcrumbs/{id}": "write",
  "DELETE /v1/breadcrumbs/{id}": "write",
  "GET /v1/events": "read",
  "GET /v1/events/stream": "subscribe",
  "POST /v1/keys": "admin",
  "GET /v1/keys": "admin",
  "GET /v1/keys/{id}": "admin",
  "DELETE /v1/keys/{id}": "admin",
  "GET /v1/outbox/parked": "admin",
  "POST /v1/outbox/retry": "admin",
  "POST /v1/nats/credentials": "subscribe",
  "GET /v1/stats/schemas": "read",
  "GET /v1/agents/{id}/consumers": "read",
};

const ID = "6f1d8f8e-2d0c-4b8e-9a57-0c5f3f1f2a10";
const tokens: Record<string, Principal> = Object.fromEntries(
  SCOPES.map((s) => [`only-${s}`, { owner: "a", scopes: SCOPES.filter((x) => x !== s), actor: `no-${s}` }]),
);
// The database is never reached: every request here is refused before its handler runs.
const app = createApp({ database: {} as Database, authenticate: async (t) => tokens[t], logger: silentLogger });

type Operation = { security?: { bearer?: string[] }[] };
async function documentedScopes(): Promise<Record<string, string>> {
  const doc = (await (await app.request("/openapi.json")).json()) as { paths: Record<string, Record<string, Operation>> };
  const out: Record<string, string> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const scope = op.security?.[0]?.bearer?.[0];
      if (scope) out[`${method.toUpperCase()} ${path}`] = scope;
    }
  }
  return out;
}

describe("scopes", () => {
  it("every /v1 operation states its scope in the document, as decided here", async () => {
    expect(await documentedScopes()).toEqual(EXPECTED);
    // Every route Hono serves under /v1 is in the document (none is served undocumented).
    const served = new Set(app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/")).map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`));
    expect([...served].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("a token without the operation's scope gets 403 forbidden naming it", async () => {
    for (const [r, scope] of Object.entries(EXPECTED)) {
      const [method, path] = r.split(" ") as [string, string];
      const res = await app.request(path.replaceAll("{id}", ID), {
        method,
        headers: { authorization: `Bearer only-${scope}`, "content-type": "application/json" },
        body: method === "GET" || method === "DELETE" ? undefined : "{}",
      });
      expect(res.status, r).toBe(403);
      const body = (await res.json()) as { error: string; details: { scope: string } };
      expect(body.error).toBe("forbidden");
      expect(body.details.scope).toBe(scope);
    }
  });

  it("a path nobody serves is 404 after authentication; a known path with another method is 405 naming the methods", async () => {
    const unknown = await app.request("/v1/something-new", { headers: { authorization: "Bearer only-read" } });
    expect(unknown.status).toBe(404);
    const wrong = await app.request(`/v1/breadcrumbs/${ID}/history`, { method: "POST", headers: { authorization: "Bearer only-read" } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
    expect(await wrong.json()).toMatchObject({ error: "method_not_allowed", details: { allow: ["GET", "HEAD"] } });
  });
});
