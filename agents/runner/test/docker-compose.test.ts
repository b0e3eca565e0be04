import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { load } from "js-yaml";
import { afterAll, describe, expect, it } from "vitest";
import { loadApiConfig } from "@crumbs/api";
import { loadRunnerConfig } from "@crumbs/runner";
// The lists of what each config parser reads.
import { API_ENV_VARS } from "@crumbs/api/testing";
import { RUNNER_ENV_VARS } from "@crumbs/runner/testing";

// What `docker compose up` runs, read from the files, in seconds and without a Docker engine; the stack
// itself is built, started and used by compose-up.test.ts.
const root = new URL("../../../", import.meta.url);
const read = (p: string) => readFile(new URL(p, root), "utf8");

interface Service {
  image?: string;
  user?: string;
  restart?: string;
  entrypoint?: string[];
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
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

  const composeText = await read("docker-compose.yml");
  // The nats-auth volume as a local folder, filled by running nats-init's own command.
  const authRoot = await mkdtemp(join(tmpdir(), "crumbs-compose-auth-"));
  const local = (value: string) => value.replace(/(^|\s)\/auth(?=\/|;|\s|$)/g, `$1${authRoot}/auth`);
  afterAll(() => rm(authRoot, { recursive: true, force: true }));
  /** nats-init's command on authRoot, as this user instead of node; idempotent, like in compose. */
  const run = () => {
    const script = local(s["nats-init"]!.command!.join(" ")).replace("node:node", `${process.getuid!()}:${process.getgid!()}`);
    return promisify(execFile)("sh", ["-c", script], {
      cwd: new URL(".", root).pathname,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
  };

  it("has postgres, nats, api and runner, each with a health check, and the one-shots nats-init and agent-init", () => {
    expect(Object.keys(s).sort()).toEqual(["agent-init", "api", "nats", "nats-init", "postgres", "runner"]);
    for (const name of ["api", "nats", "postgres", "runner"])
      expect(s[name]!.healthcheck?.test.length, name).toBeGreaterThan(0);
  });

  it("needs nothing set on a fresh clone: no required variable, no file to create first", () => {
    expect(composeText).not.toMatch(/\$\{[A-Z_]+:?\?/); // ${VAR:?...} stops `up` until VAR is set
    for (const [name, svc] of Object.entries(s))
      for (const v of svc.volumes ?? []) expect(v.startsWith("./docker/nats-auth"), `${name}: ${v}`).toBe(false);
    const binds = Object.values(s).flatMap((svc) => (svc.volumes ?? []).filter((v) => v.startsWith(".")));
    expect(binds).toEqual(["./docker/nats.conf:/etc/nats/nats.conf:ro"]); // shipped in the repo
  });

  it("nats-init writes the NATS keys into the nats-auth volume once, as root, handing them to node", () => {
    const init = s["nats-init"]!;
    expect(init.build).toEqual({ context: ".", dockerfile: "docker/Dockerfile" }); // same image, same CLI
    expect(init.restart).toBe("no"); // one-shot: a restart policy would rerun it forever
    expect(init.volumes).toEqual(["nats-auth:/auth"]);
    expect(init.entrypoint).toEqual(["sh", "-c"]);
    const script = init.command!.join(" ");
    expect(script).toContain("crumbs keys nats-init --out /auth"); // the image links the CLI's bin on PATH
    for (const f of ["auth.conf", "account.seed", "runner.creds"]) expect(script).toContain(`[ -f /auth/${f} ]`);
    // The api and runner run as node (Dockerfile USER); a new volume belongs to root.
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(init.user).toBe("root");
    expect(script).toMatch(/&& chown -R node:node \/auth$/);
  });

  it("nats-init's command creates the keys on the first run and keeps them on the next", async () => {
    await run();
    const first = await readFile(join(authRoot, "auth", "account.seed"), "utf8");
    expect((await run()).stdout).toContain("nats-init: keeping the keys");
    expect(await readFile(join(authRoot, "auth", "account.seed"), "utf8")).toBe(first);
    expect(await readFile(join(authRoot, "auth", "auth.conf"), "utf8")).toMatch(/^operator: /m);
  }, 60_000);

  it("nats starts after nats-init and reads auth.conf from the volume, read-only", () => {
    expect(s.nats!.depends_on).toEqual({ "nats-init": { condition: "service_completed_successfully" } });
    expect(s.nats!.volumes).toContain("nats-auth:/etc/nats/auth:ro");
    // nats.conf sits in /etc/nats, so ./auth/auth.conf is the volume's file.
    expect(natsConf).toMatch(/^include \.\/auth\/auth\.conf$/m);
  });

  it("api and runner read their NATS secrets from the volume, read-only", () => {
    expect(s.api!.volumes).toEqual(["nats-auth:/auth:ro"]);
    expect(s.api!.environment!.CRUMBS_NATS_ACCOUNT_SEED_FILE).toBe("/auth/account.seed");
    expect(s.api!.environment!.CRUMBS_NATS_ACCOUNT_SEED).toBeUndefined();
    expect(s.runner!.volumes).toEqual(["nats-auth:/auth:ro"]);
    expect(s.runner!.environment!.NATS_CREDS).toBe("/auth/runner.creds");
  });

  it("keeps data in named volumes", () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(["nats-auth", "natsdata", "pgdata"]);
    expect(s.postgres!.volumes).toContain("pgdata:/var/lib/postgresql/data");
    expect(s.nats!.volumes).toContain("natsdata:/data");
  });

  it("builds api and runner from the repo and runs the same crumbs commands as npm start", async () => {
    for (const name of ["api", "runner"]) {
      expect(s[name]!.build).toEqual({ context: ".", dockerfile: "docker/Dockerfile" });
      expect(s[name]!.command).toEqual([name]);
    }
    expect(dockerfile).toMatch(/^FROM node:22-bookworm-slim$/m);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toContain('ENTRYPOINT ["node", "/app/services/cli/bin/crumbs.js"]');
    // The CLI's bin, the same file `npm start` runs (from dist/ in the image).
    const cli = JSON.parse(await read("services/cli/package.json")) as { bin: Record<string, string> };
    const pkg = JSON.parse(await read("package.json")) as { scripts: Record<string, string> };
    expect(cli.bin.crumbs).toBe("./bin/crumbs.js");
    expect(pkg.scripts.start).toBe("node services/cli/bin/crumbs.js start");
  });

  it("the image's installs see every workspace's package.json, listed once", async () => {
    // npm ci refuses a lock file whose workspaces lack their package.json: a workspace added to
    // package.json without its line in the Dockerfile breaks `docker compose build`.
    const { workspaces } = JSON.parse(await read("package.json")) as { workspaces: string[] };
    const folders: string[] = [];
    for (const w of workspaces) {
      if (!w.endsWith("/*")) folders.push(w);
      else for (const d of await readdir(new URL(w.slice(0, -1), root), { withFileTypes: true })) if (d.isDirectory()) folders.push(`${w.slice(0, -1)}${d.name}`);
    }
    const copied = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((m) => m[1]);
    expect(copied.sort()).toEqual(folders.sort());
    // Both installs start from those manifests, copied before any source.
    const stages = dockerfile.split(/^FROM /m).slice(1);
    for (const stage of stages.filter((st) => st.includes("npm ci"))) {
      expect(stage.indexOf("COPY --from=manifests /app/ ./")).toBeGreaterThan(-1);
      expect(stage.indexOf("COPY --from=manifests /app/ ./")).toBeLessThan(stage.indexOf("npm ci"));
    }
    expect(stages.filter((st) => st.includes("npm ci"))).toHaveLength(2);
  });

  it("installs the page assistant once the api is healthy, as npm start does", () => {
    expect(s["agent-init"]!.command).toEqual(["agents", "install-default"]);
    expect(s["agent-init"]!.restart).toBe("no");
    expect(s["agent-init"]!.depends_on).toEqual({ api: { condition: "service_healthy" } });
    expect(withDefaults(s["agent-init"]!.environment!)).toMatchObject({ CRUMBS_URL: "http://api:8081", CRUMBS_TOKEN: "crumbs-dev-token" });
  });

  it("publishes the api and NATS's client and WebSocket ports, never NATS monitoring", () => {
    expect(s.nats!.ports).toEqual(["${CRUMBS_NATS_PORT:-4222}:4222", "${CRUMBS_NATS_WS_PORT:-9222}:9222"]);
    expect(s.api!.ports).toEqual(["${CRUMBS_API_PORT:-8081}:8081"]);
    for (const [name, svc] of Object.entries(s)) expect((svc.ports ?? []).join(), name).not.toContain("8222");
  });

  it("starts services in order: api after healthy postgres and nats, runner after a healthy api", () => {
    expect(s.api!.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      nats: { condition: "service_healthy" },
    });
    expect(s.runner!.depends_on).toEqual({
      api: { condition: "service_healthy" },
      "agent-init": { condition: "service_completed_successfully" },
    });
  });

  it("sets only variables the api and runner read", () => {
    // A misspelt variable would be dropped silently by the parsers.
    expect(Object.keys(s.api!.environment!).filter((k) => !API_ENV_VARS.includes(k))).toEqual([]);
    expect(Object.keys(s.runner!.environment!).filter((k) => !RUNNER_ENV_VARS.includes(k))).toEqual([]);
  });

  it("gives each service an environment its config parser accepts, secrets read from nats-init's files", async () => {
    await run();
    const localEnv = (env: Record<string, string>) =>
      Object.fromEntries(Object.entries(withDefaults(env)).map(([k, v]) => [k, local(v)]));
    const api = loadApiConfig(localEnv(s.api!.environment!));
    expect(api).toMatchObject({ natsUrl: "nats://nats:4222", port: 8081 });
    expect(api.databaseUrl).toMatch(/^postgres:\/\/crumbs:crumbs@postgres:5432\/crumbs$/);
    const seed = (await readFile(join(authRoot, "auth", "account.seed"), "utf8")).trim();
    expect(api.auth?.natsAccountSeed).toBe(seed);
    const runner = loadRunnerConfig(localEnv(s.runner!.environment!));
    expect(runner).toMatchObject({ crumbsUrl: "http://api:8081", natsUrl: "nats://nats:4222" });
    expect(runner.natsCreds).toBe(join(authRoot, "auth", "runner.creds"));
    expect(runner.token).toBe(api.token);
  }, 60_000);

  it("enables JetStream and WebSocket in the nats config file", () => {
    expect(s.nats!.command).toEqual(["-c", "/etc/nats/nats.conf"]);
    expect(s.nats!.volumes).toContain("./docker/nats.conf:/etc/nats/nats.conf:ro");
    expect(natsConf).toMatch(/^jetstream \{[^}]*store_dir: \/data\/jetstream/m);
    expect(natsConf).toMatch(/^websocket \{[^}]*port: 9222/m);
    // Monitoring on the container's loopback (what the health check asks), never published on the host.
    expect(natsConf).toMatch(/^http: 127\.0\.0\.1:8222$/m);
    expect(natsConf).not.toMatch(/^http_port:/m);
    expect(s.nats!.healthcheck!.test.join(" ")).toContain("http://127.0.0.1:8222/healthz");
    expect((s.nats!.ports ?? []).some((p) => String(p).includes("8222"))).toBe(false);
  });
});

describe("docker-compose.cluster.yml (the scale-out overlay)", async () => {
  const overlay = load(await read("docker-compose.cluster.yml")) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  const base = load(await read("docker-compose.yml")) as { services: Record<string, Service> };
  const s = overlay.services;
  const nodes = ["nats", "nats-2", "nats-3"];
  const flag = (svc: Service, name: string) => svc.command![svc.command!.indexOf(name) + 1];

  it("runs three NATS servers with distinct names, one cluster name, each routed to the other two", () => {
    const names = nodes.map((n) => flag(s[n]!, "--name"));
    expect(new Set(names).size).toBe(3);
    for (const n of nodes) {
      const svc = s[n]!;
      expect(svc.command!.slice(0, 2)).toEqual(["-c", "/etc/nats/nats.conf"]); // same auth and JetStream config
      expect(flag(svc, "--cluster_name")).toBe("crumbs");
      const routes = flag(svc, "--routes")!.split(",");
      expect(routes.sort()).toEqual(nodes.filter((o) => o !== n).map((o) => `nats://${o}:6222`).sort());
    }
    for (const n of ["nats-2", "nats-3"]) {
      expect(s[n]!.volumes).toContain("nats-auth:/etc/nats/auth:ro");
      expect(s[n]!.volumes).toContain(`natsdata-${n.slice(-1)}:/data`);
      expect(s[n]!.depends_on).toEqual({ "nats-init": { condition: "service_completed_successfully" } });
    }
    expect(Object.keys(overlay.volumes).sort()).toEqual(["natsdata-2", "natsdata-3"]);
  });

  it("gives both APIs and both runners all three servers, and the stream 3 replicas", () => {
    for (const name of ["api", "api-2"]) {
      const env = { ...(name === "api" ? base.services.api!.environment : {}), ...s[name]!.environment! };
      expect(Object.keys(env).filter((k) => !API_ENV_VARS.includes(k))).toEqual([]);
      const config = loadApiConfig({ ...withDefaults(env), CRUMBS_NATS_ACCOUNT_SEED_FILE: "" });
      expect(config.natsUrl.split(",")).toEqual(nodes.map((n) => `nats://${n}:4222`));
      expect(config.streamReplicas).toBe(3);
    }
    expect(s["api-2"]!.command).toEqual(["api"]);
    expect(s["api-2"]!.depends_on).toEqual({ api: { condition: "service_healthy" } }); // migrations run once first
    for (const name of ["runner", "runner-2"]) {
      const env = { ...(name === "runner" ? base.services.runner!.environment : {}), ...s[name]!.environment! };
      expect(Object.keys(env).filter((k) => !RUNNER_ENV_VARS.includes(k))).toEqual([]);
      expect(loadRunnerConfig({ ...withDefaults(env), NATS_CREDS: "" }).natsUrl.split(",")).toHaveLength(3);
    }
    expect(s["runner-2"]!.environment!.CRUMBS_URL).toBe("http://api-2:8081");
  });
});
