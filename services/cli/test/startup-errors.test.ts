import { createServer, type Server } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiConfig, startApi, type RunningApi } from "@crumbs/api";
import { createTestDatabase, freePort, NatsServer, type TestDatabase } from "@crumbs/testkit";
import { cleanEnv, runCli } from "./run-cli.ts";
import { silentLogger } from "@crumbs/telemetry";

// Each process started for real with one bad value: it must exit 1 with a line that names the
// variable and the fix, not a driver's bare error code.
const token = "startup-errors-token-0123";
let nats: NatsServer;
let db: TestDatabase;
let dir: string;
let api: RunningApi;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crumbs-startup-"));
  [nats, db] = await Promise.all([NatsServer.start(), createTestDatabase("crumbs_startup")]);
  api = await startApi({
    config: loadApiConfig({ DATABASE_URL: db.url, NATS_URL: nats.url, PORT: "0", HOST: "127.0.0.1", CRUMBS_TOKEN: token }),
    logger: silentLogger,
  });
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => busy?.close(resolve));
  await api?.close();
  await db?.drop();
  await nats?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const deadPort = async () => freePort(); // nothing listens there once freePort has closed it
const crumbs = async (args: string[], env: Record<string, string>) => {
  const res = await runCli(args, { env: cleanEnv({ HOST: "127.0.0.1", ...env }), cwd: dir });
  return { ...res, stderr: res.stderr.trim() };
};

describe("crumbs api names the variable and the fix", () => {
  it("NATS down: NATS_URL", async () => {
    const natsUrl = `nats://127.0.0.1:${await deadPort()}`;
    const res = await crumbs(["api"], { DATABASE_URL: db.url, NATS_URL: natsUrl, PORT: "0", CRUMBS_TOKEN: token });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`nats_unreachable: cannot reach NATS at ${natsUrl} (NATS_URL): connection refused. Start nats-server or set NATS_URL.`);
    expect(res.stderr).not.toContain("CONNECTION_REFUSED: CONNECTION_REFUSED");
  });

  it("Postgres down: DATABASE_URL, without its password", async () => {
    const port = await deadPort();
    const res = await crumbs(["api"], { DATABASE_URL: `postgres://me:pw@127.0.0.1:${port}/crumbs`, NATS_URL: nats.url, PORT: "0" });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `postgres_unreachable: cannot reach Postgres at postgres://me:***@127.0.0.1:${port}/crumbs (DATABASE_URL): connection refused. Start Postgres or set DATABASE_URL`,
    );
    expect(res.stderr).not.toContain(":pw@");
  });

  it("a busy port: PORT", async () => {
    const res = await crumbs(["api"], { DATABASE_URL: db.url, NATS_URL: nats.url, PORT: String(busyPort), CRUMBS_TOKEN: token });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`port_in_use: cannot listen on 127.0.0.1:${busyPort} (PORT): the port is in use by another process. Stop that process or set PORT to a free port`);
  });

  it("a bad LOG_LEVEL: LOG_LEVEL and the levels", async () => {
    const res = await crumbs(["api"], { DATABASE_URL: db.url, NATS_URL: nats.url, LOG_LEVEL: "loud" });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('invalid_config: LOG_LEVEL: "loud" is not a level; set one of fatal, error, warn, info, debug, trace, silent');
  });
});

describe("crumbs runner names the variable and the fix", () => {
  it("NATS down: NATS_URL", async () => {
    const natsUrl = `nats://127.0.0.1:${await deadPort()}`;
    const res = await crumbs(["runner"], { CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: natsUrl });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`nats_unreachable: cannot reach NATS at ${natsUrl} (NATS_URL): connection refused.`);
    expect(res.stderr).toContain("or set NATS_URL.");
  });

  it("the API down: CRUMBS_URL", async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const res = await crumbs(["runner"], { CRUMBS_URL: url, CRUMBS_TOKEN: token, NATS_URL: nats.url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`api_unreachable: cannot reach the crumbs API at ${url} (CRUMBS_URL): connection refused. Start the API`);
    expect(res.stderr).toContain("or set CRUMBS_URL.");
  });

  it("a token the API refuses: CRUMBS_TOKEN", async () => {
    const res = await crumbs(["runner"], { CRUMBS_URL: api.url, CRUMBS_TOKEN: "not-the-token", NATS_URL: nats.url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`unauthorized: the crumbs API at ${api.url} refused CRUMBS_TOKEN (401): set CRUMBS_TOKEN to a token of that API`);
  });

  it("a busy metrics port: RUNNER_METRICS_PORT", async () => {
    const res = await crumbs(["runner"], { CRUMBS_URL: api.url, CRUMBS_TOKEN: token, NATS_URL: nats.url, RUNNER_METRICS_PORT: String(busyPort) });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`port_in_use: cannot serve /metrics on port ${busyPort} (RUNNER_METRICS_PORT)`);
  });
});

describe("crumbs start names the variable and the fix", () => {
  it("a busy port: PORT, and it stops the nats-server it started", async () => {
    const natsPort = await freePort();
    const res = await crumbs(["start"], {
      PORT: String(busyPort),
      CRUMBS_NATS_PORT: String(natsPort),
      CRUMBS_NATS_WS_PORT: String(await freePort()),
      CRUMBS_NATS_MONITOR_PORT: String(await freePort()),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`port_in_use: cannot listen on 127.0.0.1:${busyPort} (PORT)`);
    // Its nats-server is gone: the port is free again.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(natsPort, "127.0.0.1", resolve));
    await new Promise((resolve) => probe.close(resolve));
  });

  it("NATS_URL pointing nowhere: NATS_URL", async () => {
    const natsUrl = `nats://127.0.0.1:${await deadPort()}`;
    const res = await crumbs(["start"], { PORT: "0", NATS_URL: natsUrl, DATABASE_URL: db.url });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`nats_unreachable: cannot reach NATS at ${natsUrl} (NATS_URL): connection refused. Start nats-server or set NATS_URL.`);
  });

  it("a bad CRUMBS_NATS_MONITOR_PORT", async () => {
    const res = await crumbs(["start"], { PORT: "0", CRUMBS_NATS_MONITOR_PORT: "eighty" });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('invalid_config: CRUMBS_NATS_MONITOR_PORT: "eighty" is not a port (0-65535)');
  });
});
