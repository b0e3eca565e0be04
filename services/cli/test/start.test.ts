import { readFileSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "@crumbs/testkit";
import { cleanEnv, LiveCli } from "./run-cli.ts";

// A process that exited but was not reaped (its parent was killed and PID 1 here does not reap)
// still answers kill(pid, 0); it counts as gone, so read its state instead.
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
};

let cwd: string;
const started: LiveCli[] = [];
const natsPids: number[] = [];

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "crumbs-start-"));
});

afterAll(async () => {
  for (const cli of started) await cli.stop("SIGKILL");
  // nats-server runs in its own process group, so a test that failed half-way must stop it itself.
  for (const pid of natsPids) if (alive(pid)) process.kill(pid, "SIGKILL");
  if (cwd) await rm(cwd, { recursive: true, force: true });
});

async function start(port: number) {
  const cli = new LiveCli(["start"], { env: cleanEnv({ PORT: String(port), HOST: "127.0.0.1" }), cwd });
  started.push(cli);
  await cli.waitForOutput(/Ctrl-C to stop/, "stdout", 60_000);
  await cli.waitForOutput(/nats-server pid \d+/, "stdout", 60_000).then((m) => natsPids.push(Number(/\d+/.exec(m[0])?.[0])));
  const field = (name: string) => new RegExp(`^  ${name}\\s+(\\S+)`, "m").exec(cli.stdout)?.[1] ?? "";
  return { cli, apiUrl: field("API"), token: field("token"), natsPid: Number(/nats-server pid (\d+)/.exec(cli.stdout)?.[1]) };
}

describe("crumbs start without DATABASE_URL or NATS_URL", () => {
  it("runs PGlite and its own nats-server, answers, keeps data and token across restarts, stops cleanly on SIGINT", async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.apiUrl).toBe(`http://127.0.0.1:${port}`);
    expect(first.cli.stdout).toMatch(/NATS WebSocket\s+ws:\/\/127\.0\.0\.1:\d+/);
    expect(first.cli.stdout).toContain("PGlite");
    expect(alive(first.natsPid)).toBe(true);
    expect((await readFile(join(cwd, ".crumbs", "dev-token"), "utf8")).trim()).toBe(first.token);
    // NATS is locked with keys made once, like docker compose's nats-init.
    expect(first.cli.stdout).toMatch(/NATS auth\s+locked; keys in .*\.crumbs\/nats\/auth/);
    const seedFile = join(cwd, ".crumbs", "nats", "auth", "account.seed");
    const seed = await readFile(seedFile, "utf8");
    expect((await stat(seedFile)).mode & 0o777).toBe(0o600);
    // No HTTP monitoring unless CRUMBS_NATS_MONITOR_PORT asks for it: its /connz (every connection's
    // JWT, also as JSONP) would be readable by any web page in a browser on this machine. The ports
    // file is what nats-server itself says it listens on.
    expect(first.cli.stdout).not.toContain("NATS monitoring");
    const portsDir = join(cwd, ".crumbs", "nats", "ports");
    const ports = JSON.parse(await readFile(join(portsDir, (await readdir(portsDir))[0]!), "utf8")) as Record<string, string[]>;
    expect(ports.nats?.length).toBeGreaterThan(0);
    expect(ports.monitoring).toBeUndefined();

    const ready = await waitFor(async () => (await fetch(`${first.apiUrl}/readyz`)).ok, { timeout: 20_000, message: "/readyz" });
    expect(ready).toBe(true);
    const auth = { authorization: `Bearer ${first.token}`, "content-type": "application/json" };
    const created = await fetch(`${first.apiUrl}/v1/breadcrumbs`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ schema_name: "note.v1", title: "kept", context: { n: 1 } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    expect(await first.cli.stop("SIGINT")).toBe(0);
    expect(first.cli.stderr).toContain("stopped");
    expect(alive(first.natsPid)).toBe(false);

    // Same directory again: the dev token and the PGlite data are still there.
    const second = await start(port);
    expect(second.token).toBe(first.token);
    expect(second.cli.stdout).toContain("from .crumbs/dev-token");
    expect(await readFile(seedFile, "utf8")).toBe(seed); // the same keys: minted credentials keep working
    const again = await fetch(`${second.apiUrl}/v1/breadcrumbs/${id}`, { headers: auth });
    expect(again.status).toBe(200);
    expect(await second.cli.stop("SIGINT")).toBe(0);
    expect(alive(second.natsPid)).toBe(false);
    expect(await readdir(join(cwd, ".crumbs"))).toEqual(expect.arrayContaining(["dev-token", "nats", "pg"]));
  });

  it("a killed crumbs start leaves its nats-server behind, and the next start stops it", async () => {
    const port = await freePort();
    const killed = await start(port);
    expect(await killed.cli.stop("SIGKILL")).toBe(null);
    expect(alive(killed.natsPid)).toBe(true);
    const next = await start(port);
    expect(alive(killed.natsPid)).toBe(false);
    expect(await next.cli.stop("SIGINT")).toBe(0);
    expect(alive(next.natsPid)).toBe(false);
  });

  it("names how to install nats-server when it is not on PATH", async () => {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-start-"));
    try {
      const cli = new LiveCli(["start"], {
        env: cleanEnv({ PORT: String(await freePort()), PATH: join(dir, "no-such-bin") }),
        cwd: dir,
      });
      started.push(cli);
      expect(await cli.exited).toBe(1);
      expect(cli.stderr).toMatch(/^nats_server_missing: nats-server is not on PATH: install it with `sudo apt-get install nats-server`/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
