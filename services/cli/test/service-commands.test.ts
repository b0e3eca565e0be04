import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, FakeOpenAI, freePort, NatsServer, seriesValue, waitFor, type TestDatabase } from "@crumbs/testkit";
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

describe("logs and metrics of crumbs api and crumbs runner", () => {
  it("api logs one JSON access line per request with the request id it echoes, the owner, and no token or query", async () => {
    const port = await freePort();
    const api = new LiveCli(["api"], {
      env: cleanEnv({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: String(port), HOST: "127.0.0.1", CRUMBS_TOKEN: token, LOG_LEVEL: "info", LOG_FORMAT: "json" }),
      cwd: dir,
    });
    live.push(api);
    await api.waitForOutput(/crumbs api listening/);
    const url = `http://127.0.0.1:${port}`;
    const mine = await fetch(`${url}/v1/breadcrumbs?schema_name=note.v1&title=secret-words`, {
      headers: { authorization: `Bearer ${token}`, "x-request-id": "trace-abc-123" },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("x-request-id")).toBe("trace-abc-123");
    const generated = await fetch(`${url}/v1/breadcrumbs/not-a-uuid`, { headers: { authorization: "Bearer wrong-token-123" } });
    expect(generated.status).toBe(401);
    const genId = generated.headers.get("x-request-id") ?? "";
    expect(genId).toMatch(/^[0-9a-f-]{36}$/);

    const lines = await waitFor(
      () => {
        const parsed = api.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
        const access = parsed.filter((l) => l.msg === "request");
        return access.some((l) => l.req_id === genId) ? access : undefined;
      },
      { message: "two access lines" },
    );
    expect(lines.find((l) => l.req_id === "trace-abc-123")).toMatchObject({
      level: 30,
      name: "api",
      method: "GET",
      path: "/v1/breadcrumbs",
      route: "/v1/breadcrumbs",
      status: 200,
      owner: "default",
      ms: expect.any(Number),
    });
    expect(lines.find((l) => l.req_id === genId)).toMatchObject({ status: 401, path: "/v1/breadcrumbs/not-a-uuid" });
    expect(lines.find((l) => l.req_id === genId)?.owner).toBeUndefined();
    for (const secret of [token, "wrong-token-123", "secret-words"]) expect(api.stderr).not.toContain(secret);

    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(seriesValue(metrics, "crumbs_http_request_duration_seconds_count", { method: "GET", route: "/v1/breadcrumbs", status: "200" })).toBeGreaterThanOrEqual(1);
    // By route pattern, never by raw path: no series carries an id.
    expect(metrics).not.toContain("not-a-uuid");
    expect(seriesValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(metrics).toContain("# TYPE nodejs_gc_duration_seconds histogram");
    expect(await api.stop("SIGTERM")).toBe(0);
  });

  it("runner serves /metrics on RUNNER_METRICS_PORT: triggers, model latency and errors, outputs, consumer pending", async () => {
    const fake = await FakeOpenAI.start();
    try {
      const port = await freePort();
      const apiCli = new LiveCli(["api"], {
        env: cleanEnv({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: String(port), HOST: "127.0.0.1", CRUMBS_TOKEN: token }),
        cwd: dir,
      });
      live.push(apiCli);
      await apiCli.waitForOutput(/crumbs api listening/);
      const url = `http://127.0.0.1:${port}`;
      const metricsPort = await freePort();
      const env = cleanEnv({ CRUMBS_URL: url, CRUMBS_TOKEN: token, NATS_URL: nats.url, OPENAI_BASE_URL: fake.url, RUNNER_METRICS_PORT: String(metricsPort), LOG_LEVEL: "info" });
      const runner = new LiveCli(["runner"], { env, cwd: dir });
      live.push(runner);
      await runner.waitForOutput(new RegExp(`metrics on http://127\\.0\\.0\\.1:${metricsPort}/metrics`));

      const agent = { agent_id: "metered", model: "test-model", system_prompt: "s", subscriptions: { selectors: [{ schema_name: "chat.message.v1" }] } };
      const input = JSON.stringify(agent);
      expect((await runCli(["agents", "apply", "-"], { env, cwd: dir, input })).code).toBe(0);
      await runner.waitForOutput(/agent running/, "stderr");
      fake.queue([{ kind: "text", content: "fine" }, { kind: "status", status: 503 }]);
      const say = (content: string) =>
        runCli(["put", "-"], {
          env,
          cwd: dir,
          input: JSON.stringify({ schema_name: "chat.message.v1", title: content, tags: ["session:m"], context: { role: "user", content, session_id: "m" } }),
        });
      const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      await say("one");
      await say("two");
      const text = await waitFor(
        async () => {
          const t = await scrape();
          return (seriesValue(t, "crumbs_runner_triggers_total", { outcome: "ok" }) ?? 0) >= 2 ? t : undefined;
        },
        { timeout: 30_000, message: "two triggers handled" },
      );
      expect(seriesValue(text, "crumbs_runner_model_call_duration_seconds_count", { provider: "openai", outcome: "ok" })).toBe(1);
      expect(seriesValue(text, "crumbs_runner_model_call_duration_seconds_count", { provider: "openai", outcome: "http_5xx" })).toBe(1);
      expect(seriesValue(text, "crumbs_runner_model_errors_total", { provider: "openai", reason: "http_5xx" })).toBe(1);
      // Both answers are written: the model's, and the one saying the model call failed.
      expect(seriesValue(text, "crumbs_runner_outputs_written_total", { schema_name: "agent.response.v1" })).toBe(2);
      expect(seriesValue(text, "crumbs_runner_consumer_pending", { agent: "metered" })).toBe(0);
      expect(seriesValue(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
      expect(await runner.stop("SIGINT")).toBe(0);
      expect(await apiCli.stop("SIGTERM")).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
