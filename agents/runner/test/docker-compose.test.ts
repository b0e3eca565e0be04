import { readFile } from "node:fs/promises";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { loadApiConfig } from "@crumbs/api";
import { loadRunnerConfig } from "@crumbs/runner";

// No Docker engine here: check what `docker compose up` would run by reading the files.
const root = new URL("../../../", import.meta.url);
const read = (p: string) => readFile(new URL(p, root), "utf8");

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

/** Compose's `${VAR:-default}` with nothing set in the shell. */
const withDefaults = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, "$1")]));

describe("docker-compose.yml", async () => {
  const compose = load(await read("docker-compose.yml")) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const dockerfile = await read("docker/Dockerfile");
  const natsConf = await read("docker/nats.conf");
  const s = compose.services;

  it("has postgres, nats, api and runner, each with a health check", () => {
    expect(Object.keys(s).sort()).toEqual(["api", "nats", "postgres", "runner"]);
    for (const name of Object.keys(s)) expect(s[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
  });

  it("keeps data in named volumes", () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(["natsdata", "pgdata"]);
    expect(s.postgres!.volumes).toContain("pgdata:/var/lib/postgresql/data");
    expect(s.nats!.volumes).toContain("natsdata:/data");
  });

  it("builds api and runner from the repo and runs the same crumbs commands as npm start", async () => {
    for (const name of ["api", "runner"]) {
      expect(s[name]!.build).toEqual({ context: ".", dockerfile: "docker/Dockerfile" });
      expect(s[name]!.command).toEqual([name]);
    }
    expect(dockerfile).toMatch(/^FROM node:20-bookworm-slim$/m);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toContain('ENTRYPOINT ["npx", "--no-install", "crumbs"]');
    // `npx crumbs` is the CLI's bin, the same file `npm start` runs.
    const cli = JSON.parse(await read("services/cli/package.json")) as { bin: Record<string, string> };
    const pkg = JSON.parse(await read("package.json")) as { scripts: Record<string, string> };
    expect(cli.bin.crumbs).toBe("./bin/crumbs.js");
    expect(pkg.scripts.start).toBe("node services/cli/bin/crumbs.js start");
  });

  it("starts services in order: api after healthy postgres and nats, runner after a healthy api", () => {
    expect(s.api!.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      nats: { condition: "service_healthy" },
    });
    expect(s.runner!.depends_on).toEqual({ api: { condition: "service_healthy" } });
  });

  it("gives each service an environment its config parser accepts", () => {
    const api = loadApiConfig(withDefaults(s.api!.environment!));
    expect(api).toMatchObject({ natsUrl: "nats://nats:4222", port: 8081 });
    expect(api.databaseUrl).toMatch(/^postgres:\/\/crumbs:crumbs@postgres:5432\/crumbs$/);
    const runner = loadRunnerConfig(withDefaults(s.runner!.environment!));
    expect(runner).toMatchObject({ crumbsUrl: "http://api:8081", natsUrl: "nats://nats:4222" });
    expect(runner.token).toBe(api.token);
  });

  it("enables JetStream and WebSocket in the nats config file", () => {
    expect(s.nats!.command).toEqual(["-c", "/etc/nats/nats.conf"]);
    expect(s.nats!.volumes).toContain("./docker/nats.conf:/etc/nats/nats.conf:ro");
    expect(natsConf).toMatch(/^jetstream \{[^}]*store_dir: \/data\/jetstream/m);
    expect(natsConf).toMatch(/^websocket \{[^}]*port: 9222/m);
    expect(natsConf).toMatch(/^http_port: 8222$/m); // what the health check asks
  });
});
