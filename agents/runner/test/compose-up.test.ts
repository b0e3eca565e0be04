import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DockerComposeEnvironment, type StartedDockerComposeEnvironment } from "testcontainers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrumbsClient, type Breadcrumb } from "@crumbs/agent-sdk";
import { dockerEngine, FakeOpenAI, freePort, launchChromium, waitFor } from "@crumbs/testkit";

/**
 * `docker compose up` as the README's "With Docker" section runs it: the images built, the stack up and
 * healthy, then what a user does with it, from the host: a chat the page assistant answers (the model
 * is FakeOpenAI on the host, reached as host.docker.internal), the dashboard at /ui/ in Chromium, a
 * custom agent of an ordinary owner over NATS, a replay; then `docker compose down -v`. The compose
 * file is the one users run, untouched: the test only sets variables it reads. Skipped, with the
 * reason, where no Docker engine answers; elsewhere its images must be pullable or built
 * (docker/stand-ins/build.sh where no registry is reachable, as .ci/run does).
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const engine = await dockerEngine();
const run = promisify(execFile);

const project = `crumbs-compose-${randomBytes(3).toString("hex")}`;
const token = "compose-test-token";
const timings: Record<string, number> = {};
const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings[name] = Math.round(performance.now() - started) / 1000;
  }
};

describe.skipIf(!engine.ok)(`docker compose up, for real${engine.ok ? "" : ` (skipped: ${engine.reason})`}`, () => {
  let fake: FakeOpenAI;
  let stack: StartedDockerComposeEnvironment | undefined;
  let env: Record<string, string>;
  let api: string;
  let natsPort: number;
  const cleanups: Array<() => Promise<unknown>> = [];

  /** `docker compose` on this test's project, as a user types it in the repository. */
  const compose = (...args: string[]) =>
    run("docker", ["compose", "-p", project, ...args], { cwd: root, env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  const call = async (path: string, init: { token?: string; method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${api}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${init.token ?? token}`, "content-type": "application/json" },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const chat = (content: string, session: string, as = token) =>
    call("/v1/breadcrumbs", {
      token: as,
      method: "POST",
      json: { schema_name: "chat.message.v1", title: content, tags: ["user:message", `session:${session}`], context: { role: "user", content, session_id: session } },
    });
  const answers = async (session: string, as = token) =>
    ((await call(`/v1/breadcrumbs?schema_name=agent.response.v1&tag=session:${session}`, { token: as })).body.items ?? []) as Breadcrumb[];

  beforeAll(async () => {
    // Containers reach the host's 0.0.0.0 as host.docker.internal (the runner's extra_hosts).
    fake = await FakeOpenAI.start({ host: "0.0.0.0" });
    fake.setScript({ kind: "text", content: "Hello from the compose stack." });
    const [apiPort, nats, wsPort] = [await freePort(), await freePort(), await freePort()];
    natsPort = nats;
    api = `http://127.0.0.1:${apiPort}`;
    env = {
      CRUMBS_TOKEN: token,
      CRUMBS_API_PORT: String(apiPort),
      CRUMBS_NATS_PORT: String(natsPort),
      CRUMBS_NATS_WS_PORT: String(wsPort),
      CRUMBS_NATS_PUBLIC_URL: `nats://127.0.0.1:${natsPort}`,
      // The page assistant's model is openrouter/...: its base URL and key, as a user's .env sets them.
      OPENROUTER_BASE_URL: `http://host.docker.internal:${new URL(fake.url).port}/v1`,
      OPENROUTER_API_KEY: "or-compose-key",
    };
    await timed("docker compose build", () => compose("build"));
    stack = await timed("docker compose up -d --wait", () =>
      new DockerComposeEnvironment(root, "docker-compose.yml")
        .withProjectName(project)
        .withEnvironment(env)
        .withClientOptions({ commandOptions: ["--wait"] })
        .withStartupTimeout(180_000)
        .up(),
    );
  }, 1_800_000);

  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    if (stack) await timed("docker compose down -v", () => stack!.down({ removeVolumes: true, timeout: 10_000 }));
    await fake?.close();
    const line = Object.entries(timings).map(([k, s]) => `${k} ${s} s`).join(", ");
    console.log(`compose timings: ${line}`);
  }, 300_000);

  it("runs every service healthy, as node in built JavaScript, with NATS monitoring unpublished", async () => {
    const { stdout } = await compose("ps", "--all", "--format", "{{.Service}} {{.State}} {{.Health}} {{.ExitCode}}");
    const states = Object.fromEntries(stdout.trim().split("\n").map((l) => [l.split(" ")[0], l.split(" ").slice(1).join(" ")]));
    expect(states).toEqual({
      postgres: "running healthy 0",
      nats: "running healthy 0",
      api: "running healthy 0",
      runner: "running healthy 0",
      "nats-init": "exited  0",
      "agent-init": "exited  0",
    });
    expect((await compose("exec", "-T", "api", "id", "-u")).stdout.trim()).toBe("1000");
    // PID 1 is node on the built CLI, and no TypeScript loader exists in the image to fall back to.
    const cmdline = (await compose("exec", "-T", "api", "cat", "/proc/1/cmdline")).stdout.split("\0").join(" ");
    expect(cmdline.trim()).toBe("node /app/services/cli/bin/crumbs.js api");
    const tsx = await compose("exec", "-T", "api", "node", "-e", "import('tsx').then(() => process.exit(0), () => process.exit(3))").catch((e: { code: number }) => e);
    expect((tsx as { code?: number }).code).toBe(3);
    // The relay runs in its worker thread, from dist/ (the outbox is drained: the chat below relies on it).
    expect((await fetch(`${api}/readyz`)).status).toBe(200);
    const published = await compose("ps", "nats", "--format", "{{range .Publishers}}{{if .PublishedPort}}{{.TargetPort}} {{end}}{{end}}");
    expect(new Set(published.stdout.trim().split(/\s+/))).toEqual(new Set(["4222", "9222"]));
    expect((await compose("exec", "-T", "nats", "wget", "-qO-", "http://127.0.0.1:8222/healthz")).stdout).toContain("ok");
  });

  it("answers a chat with the page assistant, which agent-init installed, through the model on the host", async () => {
    const before = fake.requests.length;
    const started = performance.now();
    expect((await chat("Hello?", "compose-chat")).status).toBe(201);
    const answer = await waitFor(async () => (await answers("compose-chat"))[0], { timeout: 60_000, message: "the page assistant's answer" });
    timings["chat answered"] = Math.round(performance.now() - started) / 1000;
    expect(answer.context).toMatchObject({ agent_id: "page-assistant", content: "Hello from the compose stack." });
    expect(fake.requests.length).toBeGreaterThan(before);
    expect(fake.requests.at(-1)?.authorization).toBe("Bearer or-compose-key");
  });

  it("serves the dashboard at /ui/: log in with the token, see the chat and the agent", async () => {
    const started = performance.now();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.context.newPage();
    await page.goto(`${api}/ui/`);
    await page.getByLabel("API token").fill(token);
    await page.keyboard.press("Enter");
    await page.getByRole("navigation", { name: "Pages" }).waitFor();
    await page.goto(`${api}/ui/#/sessions/compose-chat`);
    await page.reload();
    const timeline = page.getByRole("list", { name: "Session timeline" });
    await timeline.getByText("Hello from the compose stack.").waitFor({ timeout: 20_000 });
    await page.goto(`${api}/ui/#/agents`);
    await page.reload();
    const agent = page.locator('[data-agent="page-assistant"]');
    await agent.waitFor({ timeout: 20_000 });
    expect(await agent.isVisible()).toBe(true);
    timings["dashboard"] = Math.round(performance.now() - started) / 1000;
  });

  it("runs a custom agent of an ordinary owner over NATS, answering that owner's chat", async () => {
    const started = performance.now();
    const key = await call("/v1/keys", { method: "POST", json: { owner: "alice", scopes: ["read", "write", "subscribe"], name: "alice-agent" } });
    expect(key.status).toBe(201);
    const alice = String(key.body.token);
    // alice's token alone: the SDK gets alice's NATS credentials and the servers
    // (CRUMBS_NATS_PUBLIC_URL) from the API, as the README's example agent does.
    const client = new CrumbsClient({ url: api, token: alice });
    const stop = new AbortController();
    cleanups.push(async () => {
      stop.abort();
      await client.close();
    });
    const messages = await client.subscribe(
      { schema_name: "chat.message.v1", any_tags: ["user:message"] },
      { durable: "alice-echo", signal: stop.signal },
    );
    void (async () => {
      for await (const { event } of messages) {
        if (event.type === "breadcrumb.deleted") continue;
        await client.respond(event.breadcrumb, `echo: ${String(event.breadcrumb.context.content)}`, { agentId: "alice-echo", signal: stop.signal });
      }
    })();

    expect((await chat("hi from alice", "alice-chat", alice)).status).toBe(201);
    const mine = await waitFor(async () => (await answers("alice-chat", alice)).find((a) => a.context.agent_id === "alice-echo"), {
      timeout: 30_000,
      message: "alice's agent's answer",
    });
    expect(mine.context.content).toBe("echo: hi from alice");
    expect(mine.owner).toBe("alice");
    // Another owner's space does not see it.
    expect((await answers("alice-chat")).map((a) => a.id)).not.toContain(mine.id);
    timings["custom agent"] = Math.round(performance.now() - started) / 1000;
  });

  it("replays the chat from the event history with `crumbs replay` in the api container", async () => {
    const started = performance.now();
    const { stdout } = await compose("exec", "-T", "api", "crumbs", "replay", "--selector", '{"schema_name":"chat.message.v1"}', "--since", "1h", "--json");
    const events = stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { title: string; schema_name: string });
    expect(events.map((e) => e.title)).toContain("Hello?");
    expect(events.every((e) => e.schema_name === "chat.message.v1")).toBe(true);
    timings["replay"] = Math.round(performance.now() - started) / 1000;
  });

  it("docker compose down -v removes the containers, the network and the volumes", async () => {
    await timed("docker compose down -v", () => stack!.down({ removeVolumes: true, timeout: 10_000 }));
    stack = undefined;
    const left = await run("docker", ["ps", "-aq", "--filter", `label=com.docker.compose.project=${project}`]);
    expect(left.stdout.trim()).toBe("");
    const volumes = await run("docker", ["volume", "ls", "-q", "--filter", `label=com.docker.compose.project=${project}`]);
    expect(volumes.stdout.trim()).toBe("");
    const networks = await run("docker", ["network", "ls", "-q", "--filter", `label=com.docker.compose.project=${project}`]);
    expect(networks.stdout.trim()).toBe("");
  });
});
