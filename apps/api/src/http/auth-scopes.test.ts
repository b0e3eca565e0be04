import { describe, expect, it } from "vitest";
import type { Database } from "../db/database.ts";
import { createApp } from "./app.ts";
import type { Principal } from "./auth.ts";
import { SCOPES, scopeFor } from "./auth-scopes.ts";

/** What every route needs, written out: a new route fails this test until someone decides its scope here. */
const EXPECTED: Record<string, string> = {
  "GET /v1/breadcrumbs": "read",
  "GET /v1/breadcrumbs/:id": "read",
  "GET /v1/breadcrumbs/:id/history": "read",
  "POST /v1/breadcrumbs": "write",
  "PATCH /v1/breadcrumbs/:id": "write",
  "DELETE /v1/breadcrumbs/:id": "write",
  "GET /v1/events": "read",
  "GET /v1/events/stream": "subscribe",
  "POST /v1/keys": "admin",
  "GET /v1/keys": "admin",
  "DELETE /v1/keys/:id": "admin",
  "GET /v1/outbox/parked": "admin",
  "POST /v1/outbox/retry": "admin",
  "POST /v1/nats/credentials": "subscribe",
  "GET /v1/stats/schemas": "read",
  "GET /v1/agents/:id/consumers": "read",
};

const ID = "6f1d8f8e-2d0c-4b8e-9a57-0c5f3f1f2a10";
const tokens: Record<string, Principal> = Object.fromEntries(
  SCOPES.map((s) => [`only-${s}`, { owner: "a", scopes: SCOPES.filter((x) => x !== s), actor: `no-${s}` }]),
);
// The database is never reached: every request here is refused before its handler runs.
const app = createApp({ database: {} as Database, authenticate: async (t) => tokens[t], log: () => {} });
const v1Routes = () =>
  [...new Set(app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/v1/") && r.path !== "/v1/openapi.json").map((r) => `${r.method} ${r.path.replace(/\/$/, "")}`))];

describe("scopes", () => {
  it("every /v1 route has a decided scope, and scopeFor agrees with the table", () => {
    const routes = v1Routes();
    expect(routes.sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const r of routes) {
      const [method, path] = r.split(" ") as [string, string];
      expect(scopeFor(method, path.replaceAll(":id", ID)), r).toBe(EXPECTED[r]);
    }
  });

  it("a token without the route's scope gets 403 forbidden naming it", async () => {
    for (const r of v1Routes()) {
      const [method, path] = r.split(" ") as [string, string];
      const scope = EXPECTED[r] as string;
      const res = await app.request(path.replaceAll(":id", ID), {
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

  it("an unknown /v1 path needs admin (fail closed)", () => {
    expect(scopeFor("GET", "/v1/something-new")).toBe("admin");
    expect(scopeFor("POST", "/v1/breadcrumbs/x/history")).toBe("admin");
    expect(scopeFor("HEAD", "/v1/breadcrumbs")).toBe("read");
  });
});
