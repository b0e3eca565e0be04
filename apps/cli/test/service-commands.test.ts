import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, freePort, NatsServer, waitFor, type TestDatabase } from "@crumbs/testkit";
import { cleanEnv, LiveCli, runCli } from "./run-cli.ts";

const token = "cli-service-token-0123456789";
let nats: NatsServer;
let db: TestDatabase;
let dir: string;
const live: LiveCli[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crumbs-cli-svc-"));
  [nats, db] = await Promise.all([NatsServer.start(), createTestDatabase("crumbs_cli_svc")]);
});

afterAll(async () => {
  for (const cli of live) await cli.stop("SIGKILL");
  await db?.drop();
  await nats?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("crumbs migrate, api and runner, configured by environment", () => {
  it("migrate applies the migrations and is idempotent", async () => {
    const env = cleanEnv({ DATABASE_URL: db.url });
    const first = await runCli(["migrate"], { env, cwd: dir });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`migrations applied to Postgres ${db.url}`);
    const again = await runCli(["migrate"], { env, cwd: dir });
    expect(again.code).toBe(0);
    const sql = postgres(db.url, { max: 1 });
    try {
      const tables = await sql<{ name: string }[]>`select tablename as name from pg_tables where schemaname = 'public'`;
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["breadcrumbs", "breadcrumb_history", "outbox"]));
    } finally {
      await sql.end();
    }
  });

  it("a bad variable stops api with a message naming it", async () => {
    const res = await runCli(["api"], { env: cleanEnv({ DATABASE_URL: "mysql://nope", NATS_URL: nats.url }), cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("DATABASE_URL");
  });

  it("api serves on PORT, then runner connects to it; both stop cleanly on SIGINT", async () => {
    const port = await freePort();
    const api = new LiveCli(["api"], {
      env: cleanEnv({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: String(port), HOST: "127.0.0.1", CRUMBS_TOKEN: token }),
      cwd: dir,
    });
    live.push(api);
    await api.waitForOutput(new RegExp(`crumbs api listening on http://127\\.0\\.0\\.1:${port}`));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`)).ok, { message: "/readyz" });

    const runner = new LiveCli(["runner"], { env: cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: token, NATS_URL: nats.url }), cwd: dir });
    live.push(runner);
    await runner.waitForOutput(/crumbs runner connected to/);
    expect(await runner.stop("SIGINT")).toBe(0);
    expect(await api.stop("SIGTERM")).toBe(0);
    expect(api.stderr).toContain("stopping...");
  });
});
