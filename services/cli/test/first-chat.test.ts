import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeOpenAI, freePort, waitFor } from "@crumbs/testkit";
import { PAGE_ASSISTANT_FILE } from "@crumbs/agent-definitions";
import { cleanEnv, LiveCli, runCli } from "./run-cli.ts";

// `npm start` as a user runs it the first time: `crumbs start` in a fresh folder, its own ports.
const started: LiveCli[] = [];
const dirs: string[] = [];
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await FakeOpenAI.start();
  fake.setScript({ kind: "text", content: "Hello from the fake model." });
});

afterAll(async () => {
  for (const cli of started) await cli.stop("SIGKILL");
  for (const cli of started) {
    const pid = Number(/nats-server pid (\d+)/.exec(cli.stdout)?.[1]);
    try {
      if (pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("nats-server")) process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await fake?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function startIn(dir: string, extra: Record<string, string> = {}) {
  const [port, natsPort, wsPort, monitorPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env = cleanEnv({
    PORT: String(port),
    CRUMBS_NATS_PORT: String(natsPort),
    CRUMBS_NATS_WS_PORT: String(wsPort),
    CRUMBS_NATS_MONITOR_PORT: String(monitorPort),
    LOG_FORMAT: "json",
    ...extra,
  });
  for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENROUTER_API_KEY", "OPENROUTER_BASE_URL", "CRUMBS_DEFAULT_AGENT"]) {
    if (!(k in extra)) delete env[k];
  }
  const cli = new LiveCli(["start"], { env, cwd: dir });
  started.push(cli);
  await cli.waitForOutput(/Ctrl-C to stop/, "stdout", 90_000);
  const field = (name: string) => new RegExp(`^  ${name}\\s{2,}(.+)$`, "m").exec(cli.stdout)?.[1] ?? "";
  return { cli, env, apiUrl: field("API"), token: field("token").split(" ")[0]!, field, monitorPort };
}

async function chat(s: { apiUrl: string; token: string }, content: string, session: string) {
  const res = await fetch(`${s.apiUrl}/v1/breadcrumbs`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      schema_name: "chat.message.v1",
      title: content,
      tags: ["user:message", `session:${session}`],
      context: { role: "user", content, session_id: session },
    }),
  });
  expect(res.status).toBe(201);
  return waitFor(
    async () => {
      const list = await fetch(`${s.apiUrl}/v1/breadcrumbs?schema_name=agent.response.v1&tag=session:${session}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      const { items } = (await list.json()) as { items: { context: { content: string; agent_id: string } }[] };
      return items[0]?.context;
    },
    { timeout: 30_000, message: `an agent.response.v1 in session ${session}` },
  );
}

describe("the first chat after npm start", () => {
  it("without a model, the page assistant answers with the variable to set; the banner says so too", async () => {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-first-chat-"));
    dirs.push(dir);
    const s = await startIn(dir);
    expect(s.field("agent")).toMatch(/^page-assistant v1 \(installed from .*page-assistant\.json; CRUMBS_DEFAULT_AGENT=off skips it\)$/);
    expect(s.field("model")).toContain("NOT CONFIGURED");
    expect(s.field("model")).toContain("Set OPENROUTER_API_KEY");

    const answer = await chat(s, "Hello?", "no-model");
    expect(answer.agent_id).toBe("page-assistant");
    expect(answer.content).toMatch(/^I cannot answer: no model is configured: .* needs OPENROUTER_API_KEY\. Set OPENROUTER_API_KEY \(in \.env where `npm start` runs/);

    // The monitoring port nats-top and NUI attach to, when CRUMBS_NATS_MONITOR_PORT asks for one: loopback only.
    expect(s.field("NATS monitoring")).toBe(`http://127.0.0.1:${s.monitorPort} (nats-top, NUI)`);
    const varz = (await (await fetch(`http://127.0.0.1:${s.monitorPort}/varz`)).json()) as { server_id: string; jetstream: unknown };
    expect(varz.server_id).toBeTruthy();

    // One /metrics for the process: the API's series, the runner's and the runtime's.
    const metrics = await (await fetch(`${s.apiUrl}/metrics`)).text();
    expect(metrics).toMatch(/crumbs_runner_triggers_total\{outcome="ok"\} [1-9]/);
    expect(metrics).toMatch(/crumbs_runner_outputs_written_total\{schema_name="agent.response.v1"\} [1-9]/);
    expect(metrics).toMatch(/crumbs_http_request_duration_seconds_bucket\{le="[^"]+",method="POST",route="\/v1\/breadcrumbs",status="201"\}/);
    expect(metrics).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");

    expect(await s.cli.stop("SIGINT")).toBe(0);
    // Started again: the agent is there already and identical.
    const again = await startIn(dir);
    expect(again.field("agent")).toMatch(/^page-assistant v1 \(as in /);
    expect(await again.cli.stop("SIGINT")).toBe(0);
    // Two whole `crumbs start`s (API, runner, nats-server, migrations each): 60 s was too little on a
    // CI machine at load 15 on 2 cores. A time limit here checks nothing about speed.
  }, 180_000);

  it("with a model in .env, the chat answers; an edited agent is kept; CRUMBS_DEFAULT_AGENT=off installs none", async () => {
    const dir = await mkdtemp(join(tmpdir(), "crumbs-first-chat-"));
    dirs.push(dir);
    // The fake behind the agent's openrouter/... model, from .env as a user would write it.
    await writeFile(join(dir, ".env"), `# my settings\nOPENROUTER_BASE_URL=${fake.url}\nOPENROUTER_API_KEY="or-key"\n`);
    const s = await startIn(dir);
    expect(s.field(".env")).toBe("OPENROUTER_API_KEY, OPENROUTER_BASE_URL");
    expect(s.field("model")).toBe("openrouter/anthropic/claude-3.5-sonnet");
    const answer = await chat(s, "Hi there", "with-model");
    expect(answer.content).toBe("Hello from the fake model.");
    expect(fake.requests.at(-1)?.authorization).toBe("Bearer or-key");

    // The user edits the agent; the next start keeps the edit.
    const env = { ...s.env, CRUMBS_URL: s.apiUrl, CRUMBS_TOKEN: s.token };
    const edited = join(dir, "mine.json");
    const def = JSON.parse(readFileSync(PAGE_ASSISTANT_FILE, "utf8")) as { context: Record<string, unknown> };
    await writeFile(edited, JSON.stringify({ ...def, context: { ...def.context, system_prompt: "Answer in one word." } }));
    expect((await runCli(["agents", "apply", edited], { env, cwd: dir })).stderr).toContain("updated agent page-assistant (v2)");
    expect(await s.cli.stop("SIGINT")).toBe(0);

    const again = await startIn(dir);
    expect(again.field("agent")).toMatch(/^page-assistant v2 \(your edited version, kept;/);
    expect(await again.cli.stop("SIGINT")).toBe(0);

    const off = await startIn(dir, { CRUMBS_DEFAULT_AGENT: "off" });
    expect(off.field("agent")).toBe("none installed (CRUMBS_DEFAULT_AGENT=off)");
    expect(await off.cli.stop("SIGINT")).toBe(0);
    // Three whole `crumbs start`s (each its own nats-server, API, runner and relay thread): 8-15 s
    // each on a quiet 2-core machine, 25-40 s at a load average of 10, past the 60 s default.
  }, 180_000);
});
