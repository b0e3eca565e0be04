import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/http/app.ts";
import { openDatabase, type Database } from "../src/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { silentLogger } from "@crumbs/telemetry";

describe("the same store on embedded PGlite", () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "crumbs-pglite-"));
    database = await openDatabase({ pgliteDir: dir });
    await migrate(database);
    await migrate(database); // idempotent
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("creates, patches with If-Match, refuses a stale version and keeps history", async () => {
    const app = createApp({ database, adminToken: "pglite-token-123", logger: silentLogger });
    const call = (path: string, init: RequestInit = {}) =>
      app.request(path, {
        ...init,
        headers: { authorization: "Bearer pglite-token-123", "content-type": "application/json", ...init.headers },
      });
    const created = await call("/v1/breadcrumbs", {
      method: "POST",
      body: JSON.stringify({ schema_name: "test.note.v1", title: "on pglite", tags: ["a"], context: { n: 1 } }),
    });
    expect(created.status).toBe(201);
    const b = await created.json();
    const patched = await call(`/v1/breadcrumbs/${b.id}`, {
      method: "PATCH",
      headers: { "if-match": '"1"' },
      body: JSON.stringify({ context: { n: 2 } }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('"2"');
    const stale = await call(`/v1/breadcrumbs/${b.id}`, {
      method: "PATCH",
      headers: { "if-match": '"1"' },
      body: JSON.stringify({ context: { n: 3 } }),
    });
    expect(stale.status).toBe(412);
    expect((await stale.json()).details).toEqual({ current_version: 2 });
    // The merge patch's SQL function runs on PGlite too.
    const merged = await call(`/v1/breadcrumbs/${b.id}`, {
      method: "PATCH",
      headers: { "if-match": '"2"', "content-type": "application/merge-patch+json" },
      body: JSON.stringify({ context: { m: { x: 1 } } }),
    });
    expect(merged.status).toBe(200);
    expect((await merged.json()).context).toEqual({ n: 2, m: { x: 1 } });
    const history = await (await call(`/v1/breadcrumbs/${b.id}/history`)).json();
    expect(history.items.map((i: { version: number }) => i.version)).toEqual([1, 2, 3]);
    const listed = await (await call("/v1/breadcrumbs?tag=a")).json();
    expect(listed.items).toHaveLength(1);
    const events = await (await call("/v1/events?after=0")).json();
    expect(events.items.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    expect(events.items[2].changed).toEqual(["m"]);
  });
});
